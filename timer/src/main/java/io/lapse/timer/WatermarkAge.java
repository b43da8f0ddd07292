package io.lapse.timer;

import java.util.OptionalLong;

/**
 * How far the watermark trails the clock, as this timer last learned it. Alerts page on it, so it must grow in each
 * state where nothing fires: while the timer cannot read Redis, the age runs on from the last mark it read; while no
 * mark exists at all (a fresh start, a flushed Redis), from the last one it saw, or from the timer's start.
 */
final class WatermarkAge {

    /** A reading this recent stands: the timer reads at least every second while it runs. */
    static final long FRESH_MS = 2_000;

    private record Reading(long mark, long learnedAt) {}

    private volatile Reading last;

    /** @param startedAt when the timer started, on the clock of later calls: the age of no watermark at all */
    WatermarkAge(long startedAt) {
        last = new Reading(startedAt, startedAt);
    }

    /** @param mark what the timer just read; empty when Redis holds no watermark */
    void read(OptionalLong mark, long now) {
        if (mark.isPresent()) {
            last = new Reading(mark.getAsLong(), now);
        }
    }

    /** Milliseconds, never negative. */
    long millis(long now) {
        Reading reading = last;
        long age = now - reading.learnedAt() <= FRESH_MS ? reading.learnedAt() - reading.mark() : now - reading.mark();
        return Math.max(0, age);
    }
}
