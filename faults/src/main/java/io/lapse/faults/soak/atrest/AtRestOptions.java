package io.lapse.faults.soak.atrest;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A small deployment at rest: every order keeps pushing, none goes silent, so Lapse has nothing to fire and what it
 * costs is what it costs to wait.
 *
 * @param orders       orders pushing every {@code pushInterval}
 * @param warmUp       how long the load runs before the measurement, once every service is ready
 * @param measured     how long the CPU is measured
 * @param partitions   of every topic
 * @param out          where each run writes its folder of logs
 */
public record AtRestOptions(
        int orders, Duration pushInterval, Duration warmUp, Duration measured, int partitions, Path out) {

    public AtRestOptions {
        if (orders < 1 || partitions < 1) {
            throw new IllegalArgumentException("orders and partitions must be at least 1");
        }
        if (pushInterval.isNegative() || pushInterval.isZero() || measured.isNegative() || measured.isZero()) {
            throw new IllegalArgumentException("the push interval and the measured time must be positive");
        }
        if (warmUp.isNegative()) {
            throw new IllegalArgumentException("the warm-up cannot be negative");
        }
    }

    /**
     * The deployment at rest: 300 orders pushing every 15 s, a minute measured after four minutes' warm-up.
     * After one minute the JVMs' JIT compilers still took about two thirds of the services' CPU and a third of the
     * broker's; after three to four minutes a third of everything, a share that keeps falling (the table shows it on
     * its own, docs/benchmarks.md).
     */
    public static AtRestOptions defaults() {
        return new AtRestOptions(
                300,
                Duration.ofSeconds(15),
                Duration.ofMinutes(4),
                Duration.ofMinutes(1),
                6,
                Path.of("target", "rest"));
    }
}
