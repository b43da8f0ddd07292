package io.lapse.simulator;

import java.time.Duration;
import java.util.List;

/**
 * Paces the pushes in rounds of one push interval: a round takes the orders awaiting a push and hands out each at
 * its phase of the interval, so every order pushes once per interval and the load is even. With a tick, the orders
 * whose phases fall within one tick are handed out together at its end, as one batch for the producer. Times are
 * {@link System#nanoTime} values; used by the push thread only.
 */
final class PushRounds {

    private final Fleet fleet;
    private final long intervalNanos;
    private final long tickNanos;
    private final Runnable beforeEachRound;
    private List<SimulatedOrder> round = List.of();
    private int next;
    private long roundStart;

    PushRounds(Fleet fleet, Duration interval, Runnable beforeEachRound, long nowNanos) {
        this(fleet, interval, Duration.ZERO, beforeEachRound, nowNanos);
    }

    /** @param tick zero: each order at its own phase */
    PushRounds(Fleet fleet, Duration interval, Duration tick, Runnable beforeEachRound, long nowNanos) {
        if (tick.isNegative() || tick.compareTo(interval) > 0) {
            throw new IllegalArgumentException("a tick of " + tick + " does not fit a push interval of " + interval);
        }
        this.fleet = fleet;
        this.intervalNanos = interval.toNanos();
        this.tickNanos = tick.toNanos();
        this.beforeEachRound = beforeEachRound;
        this.roundStart = nowNanos - intervalNanos; // so that the first round begins at once
    }

    /** The orders due by now, in phase order; begins the next round once this one is handed out and over. */
    List<SimulatedOrder> due(long nowNanos) {
        if (next == round.size() && nowNanos - roundStart >= intervalNanos) {
            // after a stall, start afresh instead of catching up on the missed rounds in one burst
            roundStart = nowNanos - roundStart >= 2 * intervalNanos ? nowNanos : roundStart + intervalNanos;
            beforeEachRound.run();
            round = fleet.awaitingPush();
            next = 0;
        }
        int from = next;
        long handOutTo = handOutTo(nowNanos);
        while (next < round.size() && dueAt(round.get(next)) <= handOutTo) {
            next++;
        }
        return round.subList(from, next);
    }

    /** The end of the last tick that has passed: orders of the tick under way wait for its end. */
    private long handOutTo(long nowNanos) {
        long elapsed = nowNanos - roundStart;
        if (tickNanos == 0 || elapsed >= intervalNanos) {
            return nowNanos;
        }
        return roundStart + elapsed / tickNanos * tickNanos;
    }

    /** When the next order falls due (at the end of its tick), or the next round begins. */
    long nextDueAt() {
        if (next == round.size()) {
            return roundStart + intervalNanos;
        }
        long dueAt = dueAt(round.get(next));
        if (tickNanos == 0) {
            return dueAt;
        }
        long ticks = (dueAt - roundStart + tickNanos - 1) / tickNanos;
        return Math.min(roundStart + ticks * tickNanos, roundStart + intervalNanos);
    }

    private long dueAt(SimulatedOrder order) {
        return roundStart + (long) (order.phase * intervalNanos);
    }
}
