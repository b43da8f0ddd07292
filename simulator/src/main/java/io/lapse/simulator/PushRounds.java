package io.lapse.simulator;

import java.time.Duration;
import java.util.List;

/**
 * Paces the pushes in rounds of one push interval: a round takes the orders awaiting a push and hands out each at
 * its phase of the interval, so every order pushes once per interval and the load is even. Times are
 * {@link System#nanoTime} values; used by the push thread only.
 */
final class PushRounds {

    private final Fleet fleet;
    private final long intervalNanos;
    private final Runnable beforeEachRound;
    private List<SimulatedOrder> round = List.of();
    private int next;
    private long roundStart;

    PushRounds(Fleet fleet, Duration interval, Runnable beforeEachRound, long nowNanos) {
        this.fleet = fleet;
        this.intervalNanos = interval.toNanos();
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
        while (next < round.size() && dueAt(round.get(next)) <= nowNanos) {
            next++;
        }
        return round.subList(from, next);
    }

    /** When the next order falls due, or the next round begins. */
    long nextDueAt() {
        return next < round.size() ? dueAt(round.get(next)) : roundStart + intervalNanos;
    }

    private long dueAt(SimulatedOrder order) {
        return roundStart + (long) (order.phase * intervalNanos);
    }
}
