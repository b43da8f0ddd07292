package io.lapse.bench.lateness;

import io.lapse.bench.harness.ExpiryCollector;
import io.lapse.bench.load.OrderIds;
import io.lapse.bench.load.PushSchedule;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.HdrHistogram.Histogram;

/**
 * Judges the expiries of a run against what the generator did. The deadline is the bench's own (the silent order's
 * last ts + ttl), not the one the event claims, so that a timer counting from the wrong push cannot look punctual.
 */
final class LatenessTally {

    private static final long HIGHEST_MILLIS = 3_600_000;
    private static final long LATE_MILLIS = 1_000;

    /**
     * @param expected       silent orders
     * @param fired          silent orders whose first expiry came within the grace after their deadline
     * @param falseExpiries  expiries of orders that kept pushing, or fired before the deadline of the last push
     * @param lateness       ms from deadline to Kafka's append time, of the fired ones
     * @param claimDelay     the part of it until the timer claimed the expiry in Redis; the rest is the publish
     */
    record Figures(
            int expected, int fired, int lateOverSecond, long falseExpiries, Histogram lateness, Histogram claimDelay) {

        int missing() {
            return expected - fired;
        }
    }

    private LatenessTally() {}

    /** @param lastSent the ts of an order's newest push */
    static Figures tally(
            PushSchedule schedule,
            IntToLongFunction lastSent,
            long ttlMillis,
            long graceMillis,
            List<ExpiryCollector.Expiry> expiries) {
        Histogram lateness = new Histogram(HIGHEST_MILLIS, 3);
        Histogram claimDelay = new Histogram(HIGHEST_MILLIS, 3);
        BitSet counted = new BitSet(schedule.orders());
        int fired = 0;
        int late = 0;
        long falseExpiries = 0;
        for (ExpiryCollector.Expiry expiry : expiries) {
            int order = OrderIds.indexOf(expiry.orderId());
            if (order < 0 || order >= schedule.orders() || !schedule.isSilent(order)) {
                falseExpiries++;
                continue;
            }
            long deadline = lastSent.applyAsLong(order) + ttlMillis;
            long millis = expiry.appendTime() - deadline;
            if (expiry.deadline() < deadline || millis < 0) {
                falseExpiries++;
            } else if (expiry.attempt() == 1 && millis <= graceMillis && !counted.get(order)) {
                counted.set(order);
                fired++;
                late += millis > LATE_MILLIS ? 1 : 0;
                lateness.recordValue(Math.min(millis, HIGHEST_MILLIS));
                claimDelay.recordValue(Math.max(0, Math.min(expiry.firedAt() - deadline, HIGHEST_MILLIS)));
            }
        }
        return new Figures(schedule.silentOrders(), fired, late, falseExpiries, lateness, claimDelay);
    }

    /** The latest deadline of a silent order; meaningful once the silence is complete. */
    static long lastDeadline(PushSchedule schedule, IntToLongFunction lastSent, long ttlMillis) {
        long last = 0;
        for (int order = 0; order < schedule.orders(); order++) {
            if (schedule.isSilent(order)) {
                last = Math.max(last, lastSent.applyAsLong(order) + ttlMillis);
            }
        }
        return last;
    }
}
