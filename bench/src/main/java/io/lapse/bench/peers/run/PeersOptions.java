package io.lapse.bench.peers.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What {@code ./lapse bench peers} runs.
 *
 * @param sizes          entities per run, ascending: a system that cannot keep up at one size skips the larger ones
 * @param deadline       T: each re-arm sets the entity's deadline to now + T
 * @param cadence        R: how often every live entity re-arms; shorter than T
 * @param silentFraction share of the entities that stop re-arming, each at its own random moment
 * @param grace          how long after its deadline a silent entity may fire before it counts as missed
 * @param hop            how long the Kafka hop alone is measured at each size
 * @param plotDir        where the PNG plots go
 * @param systems        the keys of the systems to run ({@link Peer#key}), in their usual order; empty: every one
 */
public record PeersOptions(
        List<Integer> sizes,
        Duration deadline,
        Duration cadence,
        double silentFraction,
        Duration grace,
        Duration hop,
        Path plotDir,
        List<String> systems) {

    private static final Duration GRACE = Duration.ofSeconds(60);
    private static final Duration HOP = Duration.ofSeconds(10);
    private static final double SILENT = 0.01;
    private static final Path PLOTS = Path.of("target", "peers");

    public PeersOptions {
        sizes = List.copyOf(sizes);
        systems = List.copyOf(systems);
        if (sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 100)) {
            throw new IllegalArgumentException("sizes must be at least 100 entities each: " + sizes);
        }
        if (!sizes.equals(sizes.stream().sorted().toList())) {
            throw new IllegalArgumentException("sizes must ascend, so that a system that cannot keep up is skipped at"
                    + " the larger ones: " + sizes);
        }
        if (cadence.isNegative() || cadence.isZero() || cadence.compareTo(deadline) >= 0) {
            throw new IllegalArgumentException(
                    "the cadence (" + cadence + ") must be positive and shorter than the deadline (" + deadline + ")");
        }
        if (silentFraction <= 0 || silentFraction >= 1) {
            throw new IllegalArgumentException("silentFraction must be in (0, 1): " + silentFraction);
        }
        if (grace.isNegative() || grace.isZero() || hop.isNegative() || hop.isZero()) {
            throw new IllegalArgumentException("grace and hop must be positive: " + grace + ", " + hop);
        }
    }

    /** Lapse's production shape scaled to fit: T = 90 s, R = 15 s, at 10 k, 100 k and 1 M entities. */
    public static PeersOptions full() {
        return new PeersOptions(
                List.of(10_000, 100_000, 1_000_000),
                Duration.ofSeconds(90),
                Duration.ofSeconds(15),
                SILENT,
                GRACE,
                HOP,
                PLOTS,
                List.of());
    }

    /** The short variant: T = 6 s, R = 2 s. */
    public static PeersOptions fast() {
        return full().withTiming(Duration.ofSeconds(6), Duration.ofSeconds(2));
    }

    public PeersOptions withSizes(List<Integer> newSizes) {
        return new PeersOptions(newSizes, deadline, cadence, silentFraction, grace, hop, plotDir, systems);
    }

    public PeersOptions withTiming(Duration newDeadline, Duration newCadence) {
        return new PeersOptions(sizes, newDeadline, newCadence, silentFraction, grace, hop, plotDir, systems);
    }

    public PeersOptions withHop(Duration newHop) {
        return new PeersOptions(sizes, deadline, cadence, silentFraction, grace, newHop, plotDir, systems);
    }

    public PeersOptions withPlotDir(Path newPlotDir) {
        return new PeersOptions(sizes, deadline, cadence, silentFraction, grace, hop, newPlotDir, systems);
    }

    public PeersOptions withSystems(List<String> newSystems) {
        return new PeersOptions(sizes, deadline, cadence, silentFraction, grace, hop, plotDir, newSystems);
    }

    /** Re-arms per second the workload needs at {@code entities}: N / R. */
    public double neededRate(int entities) {
        return entities * 1e9 / cadence.toNanos();
    }
}
