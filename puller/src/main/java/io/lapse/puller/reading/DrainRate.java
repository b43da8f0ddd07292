package io.lapse.puller.reading;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * How fast the backlog drains: expiries answered (their answer acknowledged, dead letters and duplicates included)
 * per second over the last minute, or since the puller started when that was less than a minute ago. With the
 * backlog, it tells how long the backlog takes to drain at this pace. Safe to use from any thread.
 */
public final class DrainRate {

    /** The time to drain while the backlog does not drain at all: a number dashboards and alerts can compare. */
    static final double NOT_DRAINING = -1;

    static final Duration WINDOW = Duration.ofMinutes(1);
    private static final int SECONDS = (int) WINDOW.toSeconds();
    private static final long NANOS_PER_SECOND = Duration.ofSeconds(1).toNanos();

    private final LongSupplier nanoTime;
    private final long start;
    /** answers per second of the window, each slot reused for the second {@code SECONDS} later */
    private final long[] answers = new long[SECONDS];
    /** the second since start each slot counts */
    private final long[] second = new long[SECONDS];

    /** @param nanoTime a monotonic clock, such as {@code System::nanoTime} */
    public DrainRate(LongSupplier nanoTime) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.start = nanoTime.getAsLong();
    }

    /** One expiry answered. */
    synchronized void answered() {
        long now = secondsSinceStart();
        int slot = (int) (now % SECONDS);
        if (second[slot] != now) {
            second[slot] = now;
            answers[slot] = 0;
        }
        answers[slot]++;
    }

    /** Expiries answered per second over the last minute. */
    synchronized double perSecond() {
        long elapsedNanos = nanoTime.getAsLong() - start;
        long now = elapsedNanos / NANOS_PER_SECOND;
        long sum = 0;
        for (int slot = 0; slot < SECONDS; slot++) {
            if (now - second[slot] < SECONDS) {
                sum += answers[slot];
            }
        }
        // the current second counts only as far as it went; at least a second, so one early answer is no spike
        double span = Math.max(1.0, Math.min(SECONDS, (double) elapsedNanos / NANOS_PER_SECOND));
        return sum / span;
    }

    /**
     * @return seconds until a backlog of this size is drained at this pace: 0 when there is none, {@link
     *     #NOT_DRAINING} when there is one and nothing was answered within the last minute
     */
    static double secondsToDrain(long backlog, double perSecond) {
        if (backlog <= 0) {
            return 0;
        }
        return perSecond > 0 ? backlog / perSecond : NOT_DRAINING;
    }

    private long secondsSinceStart() {
        return (nanoTime.getAsLong() - start) / NANOS_PER_SECOND;
    }
}
