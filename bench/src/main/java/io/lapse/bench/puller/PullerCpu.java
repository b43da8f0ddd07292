package io.lapse.bench.puller;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CPU time the puller spends, apart from the simulated upstream and the benchmark that share its process: the threads
 * started with the puller (its loop, pull threads, Kafka and Redis clients, HTTP client) and the JVM's shared pools it
 * hands work to, counted from once it is ready. Threads that existed before it started are the benchmark's and the
 * simulator's, and so are threads named {@code lapse-upstream-*}. GC and JIT threads are no Java threads and are left
 * out; the process's CPU over the same span, simulator included, is kept beside it as a bound.
 */
final class PullerCpu {

    /** Shared pools the puller hands work to though they may have started before it. */
    private static final String[] SHARED = {"ForkJoinPool.commonPool", "CompletableFutureDelayScheduler"};

    private static final Logger log = LoggerFactory.getLogger(PullerCpu.class);
    private static final String SIMULATOR = "lapse-upstream-";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    private final Set<Long> before = new HashSet<>();
    private final Map<Long, Long> baseline = new HashMap<>();
    private final Map<Long, Long> userBaseline = new HashMap<>();
    private long processBaseline;
    private long wallBaseline;

    /** Call before the puller starts: the threads alive now are not the puller's. */
    static PullerCpu beforeStart() {
        PullerCpu cpu = new PullerCpu();
        for (long id : cpu.threads.getAllThreadIds()) {
            cpu.before.add(id);
        }
        return cpu;
    }

    /** Call once the puller is ready: its start-up does not count. */
    void ready() {
        baseline.clear();
        userBaseline.clear();
        for (long id : threads.getAllThreadIds()) {
            long nanos = threads.getThreadCpuTime(id);
            if (nanos >= 0) {
                baseline.put(id, nanos);
                userBaseline.put(id, threads.getThreadUserTime(id));
            }
        }
        processBaseline = os.getProcessCpuTime();
        wallBaseline = System.nanoTime();
    }

    /** CPU used since {@link #ready()}. */
    Used used() {
        long puller = 0;
        long user = 0;
        Map<String, Long> byKind = new TreeMap<>();
        long[] ids = threads.getAllThreadIds();
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            ThreadInfo info = infos[i];
            long nanos = threads.getThreadCpuTime(ids[i]);
            if (info == null || nanos < 0 || !isPullers(ids[i], info.getThreadName())) {
                continue;
            }
            long used = nanos - baseline.getOrDefault(ids[i], 0L);
            puller += used;
            user += threads.getThreadUserTime(ids[i]) - userBaseline.getOrDefault(ids[i], 0L);
            byKind.merge(info.getThreadName().replaceAll("\\d+", "N"), used, Long::sum);
        }
        // the kernel's part (system calls, waking and parking threads) is what JFR's samples of Java code do not show
        log.info(
                "puller CPU by thread (ms): {}; in the kernel: {} %",
                top(byKind), puller == 0 ? 0 : Math.round(100.0 * (puller - user) / puller));
        return new Used(
                puller / 1e6,
                (os.getProcessCpuTime() - processBaseline) / 1e6,
                (System.nanoTime() - wallBaseline) / 1e6);
    }

    private static String top(Map<String, Long> byKind) {
        return byKind.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(12)
                .map(e -> e.getKey() + "=" + e.getValue() / 1_000_000)
                .collect(Collectors.joining(", "));
    }

    private boolean isPullers(long id, String name) {
        if (name.startsWith(SIMULATOR)) {
            return false;
        }
        for (String shared : SHARED) {
            if (name.startsWith(shared)) {
                return true;
            }
        }
        return !before.contains(id);
    }

    /**
     * @param pullerMs  CPU of the puller's threads
     * @param processMs CPU of the whole process (simulator, benchmark, GC and JIT included)
     * @param wallMs    the span measured
     */
    record Used(double pullerMs, double processMs, double wallMs) {
        double pullerMsPer(int pulls) {
            return pulls == 0 ? 0 : pullerMs / pulls;
        }

        double processMsPer(int pulls) {
            return pulls == 0 ? 0 : processMs / pulls;
        }

        /** Cores the puller kept busy on average. */
        double pullerCores() {
            return wallMs == 0 ? 0 : pullerMs / wallMs;
        }
    }
}
