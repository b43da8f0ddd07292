package io.lapse.faults.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * A chaos run's settings.
 *
 * @param length       how long the run lasts from its first strike to its verdict: faults strike for all but the last
 *                     {@link #CALM}
 * @param seed         draws the schedule and the churn: the same seed replays both
 * @param faults       the kinds the schedule draws from
 * @param orders       active orders, each pushing every {@code pushInterval}
 * @param ttl          Lapse's timer.ttl (and timer.repeat)
 * @param scanInterval the compensator's drift scan
 * @param partitions   of every topic
 * @param workDir      logs of every process, and the findings
 */
public record ChaosOptions(
        Duration length,
        long seed,
        Set<FaultKind> faults,
        int orders,
        Duration pushInterval,
        Duration ttl,
        Duration scanInterval,
        int partitions,
        Path workDir) {

    /**
     * The end of every run: no strike, so that every silence due until it began can still fire within the judge's
     * bound, with a few seconds for the last expiries' pulls.
     */
    public static final Duration CALM = Duration.ofMillis(Judge.BOUND + 5_000);

    /** A run shorter than its calm and this would strike next to nothing. */
    private static final Duration SHORTEST_FAULTS = Duration.ofSeconds(30);

    public ChaosOptions {
        faults = Set.copyOf(faults);
        if (length.compareTo(CALM.plus(SHORTEST_FAULTS)) < 0) {
            throw new IllegalArgumentException(
                    "a chaos run lasts at least " + CALM.plus(SHORTEST_FAULTS).toSeconds() + " s (its last "
                            + CALM.toSeconds() + " s without faults), got " + length.toSeconds() + " s");
        }
        if (faults.isEmpty()) {
            throw new IllegalArgumentException("a chaos run needs at least one fault kind");
        }
    }

    /** How long faults strike: the length but the calm. */
    public Duration faultsLength() {
        return length.minus(CALM);
    }

    /** The workload: 300 orders pushing every second, ttl 3 s, the compensator scanning every 5 s. */
    public static ChaosOptions of(Duration length, long seed, Set<FaultKind> faults, Path workDir) {
        return new ChaosOptions(
                length,
                seed,
                faults,
                300,
                Duration.ofSeconds(1),
                Duration.ofSeconds(3),
                Duration.ofSeconds(5),
                6,
                workDir);
    }
}
