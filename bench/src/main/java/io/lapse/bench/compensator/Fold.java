package io.lapse.bench.compensator;

import io.lapse.bench.report.Rate;
import java.lang.management.ManagementFactory;
import java.util.Objects;

/**
 * One application's pass over the backlog: how fast, and how much CPU the JVM spent meanwhile. The broker runs in the
 * same JVM, so its work for the application's writes and reads counts too.
 *
 * @param cpuNanos the process's CPU time over the pass, every core added up
 */
record Fold(Rate rate, long cpuNanos) {

    Fold {
        Objects.requireNonNull(rate, "rate");
        if (cpuNanos < 0) {
            throw new IllegalArgumentException("negative CPU time " + cpuNanos);
        }
    }

    /** The process's CPU time so far. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static Fold since(long startNanos, long startCpuNanos, long records) {
        return new Fold(Rate.since(startNanos, records, true), processCpuNanos() - startCpuNanos);
    }

    /** Microseconds of CPU per record. */
    double cpuMicrosPerRecord() {
        return rate.records() == 0 ? 0 : cpuNanos / 1e3 / rate.records();
    }
}
