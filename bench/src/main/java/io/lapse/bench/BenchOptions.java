package io.lapse.bench;

import io.lapse.bench.lateness.LatenessLoad;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What the benchmark runs.
 *
 * @param sizes            watched orders per fire-lateness run; empty skips those runs
 * @param modes            timer modes to compare, {@code zset} and/or {@code ttl}
 * @param cadence          how often every order pushes a status while it is alive
 * @param ttl              timer.ttl; must exceed the cadence, or every order would expire between two of its pushes
 * @param silentFraction   share of the orders that stop pushing after the warm-up, 0 to 1
 * @param throughputPushes records of the ingest-throughput measurement; 0 skips it
 * @param output           also write the Markdown report here, when not null
 */
public record BenchOptions(
        List<Integer> sizes,
        List<String> modes,
        Duration cadence,
        Duration ttl,
        double silentFraction,
        long throughputPushes,
        Path output) {

    public BenchOptions {
        sizes = List.copyOf(sizes);
        modes = modes.stream().map(m -> m.toLowerCase(Locale.ROOT)).toList();
        if (sizes.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("every size must be at least 1, got " + sizes);
        }
        if (!List.of("zset", "ttl").containsAll(modes)) {
            throw new IllegalArgumentException("modes must be zset or ttl, got " + modes);
        }
        new LatenessLoad(cadence, ttl, silentFraction);
        if (throughputPushes < 0) {
            throw new IllegalArgumentException("throughput pushes must not be negative, got " + throughputPushes);
        }
    }

    /** How the orders of the fire-lateness runs push. */
    public LatenessLoad lateness() {
        return new LatenessLoad(cadence, ttl, silentFraction);
    }

    /** 10 k, 100 k and 1 M orders in both modes, pushing every 15 s with a 20 s ttl; 1 % go silent. */
    public static BenchOptions defaults() {
        return new BenchOptions(
                List.of(10_000, 100_000, 1_000_000),
                List.of("zset", "ttl"),
                Duration.ofSeconds(15),
                Duration.ofSeconds(20),
                0.01,
                2_000_000,
                null);
    }
}
