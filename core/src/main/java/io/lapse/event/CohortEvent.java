package io.lapse.event;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Many orders of one cohort (an operator, a region, a backend: what {@code fleet.cohort-field} names) went silent
 * together while the rest of the fleet kept pushing, or they push again: one event when a cohort's silence starts, one
 * when it ends, on {@code topics.fleet-events} beside the {@link FleetEvent}s. Every expiry fires all the same; this
 * says they share one cause. Orders are counted from pushes (a cohort's pushes per second times the fleet's mean push
 * interval), so the counts are estimates.
 *
 * @param at                      when Lapse decided (epoch ms)
 * @param since                   when the orders' silence began, to the {@code fleet.window}'s sixth it is counted in
 * @param topic                   the push topic
 * @param cohortOf                what names the cohort: the push field ({@code operatorId}), or the orderId's prefix
 * @param orders                  the cohort's orders before the silence, when it started; pushing now, when it ended
 * @param silentOrders            of those, the orders silent now (neither pushing nor finished)
 * @param pushesPerSecond         the cohort's pushes per second over the last window
 * @param baselinePushesPerSecond its pushes per second over the baseline before the silence
 */
@JsonPropertyOrder({
    "event",
    "at",
    "since",
    "topic",
    "cohortOf",
    "cohort",
    "orders",
    "silentOrders",
    "pushesPerSecond",
    "baselinePushesPerSecond"
})
public record CohortEvent(
        Kind event,
        long at,
        long since,
        String topic,
        String cohortOf,
        String cohort,
        long orders,
        long silentOrders,
        double pushesPerSecond,
        double baselinePushesPerSecond)
        implements Validated {

    public enum Kind {
        COHORT_SILENCE_STARTED,
        COHORT_SILENCE_ENDED
    }

    /** The same silence, ended at {@code at}, with the cohort's figures then. */
    public CohortEvent ended(long at, long orders, long silentOrders, double pushesPerSecond) {
        return new CohortEvent(
                Kind.COHORT_SILENCE_ENDED,
                at,
                since,
                topic,
                cohortOf,
                cohort,
                orders,
                silentOrders,
                pushesPerSecond,
                baselinePushesPerSecond);
    }

    @Override
    public void validate() {
        FleetEvent.requireHead(event, at, since, topic);
        if (cohort == null || cohort.isEmpty()) {
            throw new InvalidRecordException("cohort is missing");
        }
    }
}
