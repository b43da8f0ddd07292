package io.lapse.faults.lab;

import io.lapse.faults.waiting.Waiting;
import java.time.Duration;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until a generation's Lapse processes have settled. A JVM's first half-minute goes to loading and compiling
 * classes; on two cores four of them starting together slow everything beside them, a restarted process most (a
 * timer restarted 20 s after the deployment's start took 10 s to be ready, one restarted a minute later 4 s). An
 * operator restarts a service of a deployment that has been running, so a scenario strikes one that has settled.
 */
final class Settling {

    private static final Logger log = LoggerFactory.getLogger(Settling.class);
    /** How long each measurement of the processes' CPU use lasts. */
    private static final Duration SAMPLE = Duration.ofSeconds(5);
    /**
     * Settled: the processes together use less than this. Serving the scenarios' workload (300 orders pushing every
     * second) took them 0.34 cores once compiled, on the quiet development machine; starting up, well over one.
     */
    private static final double SETTLED_CORES = 0.6;
    /** On a machine too loaded to settle, the scenarios go on without it and say so. */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Settling() {}

    static void await(String generation, Collection<LapseProcess> processes) {
        long startedAt = System.nanoTime();
        long deadline = startedAt + TIMEOUT.toNanos();
        double cores = Double.NaN;
        while (System.nanoTime() < deadline) {
            long before = System.nanoTime();
            double cpuBefore = cpuSeconds(processes);
            Waiting.sleep(SAMPLE);
            cores = (cpuSeconds(processes) - cpuBefore) / ((System.nanoTime() - before) / 1e9);
            if (cores < SETTLED_CORES) {
                log.info(
                        "{}: settled {} ms after every service ran (its processes used {} cores)",
                        generation,
                        (System.nanoTime() - startedAt) / 1_000_000,
                        String.format("%.2f", cores));
                return;
            }
        }
        log.warn(
                "{}: its processes still used {} cores after {} s; the scenarios start anyway",
                generation,
                String.format("%.2f", cores),
                TIMEOUT.toSeconds());
    }

    /** CPU time the processes used so far; one that ended counts nothing from then on. */
    private static double cpuSeconds(Collection<LapseProcess> processes) {
        return processes.stream()
                .mapToDouble(process -> ProcessHandle.of(process.pid())
                        .flatMap(handle -> handle.info().totalCpuDuration())
                        .map(cpu -> cpu.toNanos() / 1e9)
                        .orElse(0.0))
                .sum();
    }
}
