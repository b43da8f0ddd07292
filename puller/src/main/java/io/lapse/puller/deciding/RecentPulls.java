package io.lapse.puller.deciding;

import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * When this puller last pulled each order {@code OK}, for the most recent orders: an expiry whose deadline is not
 * after that pull asks nothing upstream has not just answered. Redis says the same once ingest has read the OK result
 * and re-armed the order (see {@code OrderView.hasNewsSince}), but in a storm the other attempts of the order are
 * often read before that, and when upstream's status is no newer than the expiry's {@code lastSeen} Redis never says
 * it. Forgotten after a restart, and beyond the most recent {@code remembered} orders: then the order is pulled once
 * more, which costs a call and nothing else.
 *
 * <p>Only OK counts: FAILED means upstream gave no usable answer, and a NOT_FOUND ends the watch, so an order
 * upstream briefly did not know (a replica behind) gets a second chance from its next attempt rather than none.
 * Safe to use from any thread.
 */
public final class RecentPulls {

    private final Map<String, Long> lastOkPulledAt;

    /** @param remembered how many orders to remember, the most recently pulled ones */
    public RecentPulls(int remembered) {
        if (remembered < 1) {
            throw new IllegalArgumentException("remembered must be at least 1, got " + remembered);
        }
        this.lastOkPulledAt = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > remembered;
            }
        };
    }

    /** Remembers an OK result Kafka acknowledged; other outcomes are not a pull that answers later expiries. */
    synchronized void published(PullResult result) {
        if (result.outcome() != PullResult.Outcome.OK) {
            return;
        }
        // taken out and put back, so that the order counts as the most recent one
        Long before = lastOkPulledAt.remove(result.orderId());
        lastOkPulledAt.put(result.orderId(), before == null ? result.pulledAt() : Math.max(before, result.pulledAt()));
    }

    /** Whether the order was pulled OK at or after the expiry's deadline, so that its pull would ask nothing new. */
    synchronized boolean answered(TimerExpired expiry) {
        Long pulledAt = lastOkPulledAt.get(expiry.orderId());
        return pulledAt != null && pulledAt >= expiry.deadline();
    }
}
