package io.lapse.bench.expiry;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import java.util.function.Predicate;

/**
 * CPU time and heap allocated by a chosen set of this JVM's threads, from a snapshot on: what one part of the process
 * spent, garbage collection aside (what it allocated is what the collector will have to deal with).
 */
public final class ThreadCpu {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final Predicate<Thread> counted;
    private final Map<Long, Long> start = new HashMap<>();
    private final Map<Long, Long> startAllocated = new HashMap<>();

    private ThreadCpu(Predicate<Thread> counted) {
        this.counted = counted;
    }

    /** Counts, from now on, the threads alive now or started later that {@code counted} accepts. */
    public static ThreadCpu from(Predicate<Thread> counted) {
        ThreadCpu cpu = new ThreadCpu(counted);
        Thread.getAllStackTraces().keySet().stream().filter(counted).forEach(t -> {
            cpu.start.put(t.getId(), Math.max(0, THREADS.getThreadCpuTime(t.getId())));
            cpu.startAllocated.put(t.getId(), Math.max(0, THREADS.getThreadAllocatedBytes(t.getId())));
        });
        return cpu;
    }

    /** The threads alive now that were not: those a part of the process started after {@code before}. */
    public static Predicate<Thread> startedAfter(Set<Long> before) {
        return t -> !before.contains(t.getId());
    }

    public static Set<Long> aliveNow() {
        return Set.copyOf(
                Thread.getAllStackTraces().keySet().stream().map(Thread::getId).toList());
    }

    /** CPU ns the counted threads spent since the snapshot (a thread that ended meanwhile is not counted). */
    public long nanos() {
        return sinceSnapshot(start, THREADS::getThreadCpuTime);
    }

    /** Bytes the counted threads allocated since the snapshot (a thread that ended meanwhile is not counted). */
    public long allocatedBytes() {
        return sinceSnapshot(startAllocated, THREADS::getThreadAllocatedBytes);
    }

    private long sinceSnapshot(Map<Long, Long> snapshot, LongUnaryOperator reading) {
        long total = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (counted.test(t)) {
                long now = reading.applyAsLong(t.getId());
                if (now > 0) {
                    total += now - snapshot.getOrDefault(t.getId(), 0L);
                }
            }
        }
        return total;
    }
}
