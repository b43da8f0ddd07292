package io.lapse.faults.soak.load;

import java.time.Duration;

/**
 * What the load generator does: {@code orders} active orders pushing every {@code pushInterval}, sessions of
 * {@code sessionMin} to {@code sessionMax}, and a share {@code silentShare} of the orders falling silent between
 * {@code silenceFrom} and {@code silenceUntil} after its start; every push stops from {@code stormAt} after its start
 * for {@code stormFor} (zero: never). Each round a share {@code missShare} of the pushing orders misses its next push
 * (a quarter of them the one after too), as chargers with a bad connection do; the {@code cohorts} are the fleet's
 * operators and the one that may go silent.
 */
public record LoadPlan(
        int orders,
        Duration pushInterval,
        Duration sessionMin,
        Duration sessionMax,
        double silentShare,
        Duration silenceFrom,
        Duration silenceUntil,
        Duration stormAt,
        Duration stormFor,
        double missShare,
        CohortPlan cohorts) {

    public LoadPlan {
        if (orders < 1) {
            throw new IllegalArgumentException("orders must be at least 1, got " + orders);
        }
        if (pushInterval.isNegative() || pushInterval.isZero()) {
            throw new IllegalArgumentException("the push interval must be positive, got " + pushInterval);
        }
        if (sessionMin.isNegative() || sessionMin.isZero() || sessionMax.compareTo(sessionMin) < 0) {
            throw new IllegalArgumentException("sessions of " + sessionMin + " to " + sessionMax);
        }
        if (silentShare < 0 || silentShare > 1) {
            throw new IllegalArgumentException("the silent share is from 0 to 1, got " + silentShare);
        }
        if (silenceFrom.isNegative() || silenceUntil.compareTo(silenceFrom) < 0) {
            throw new IllegalArgumentException("silences from " + silenceFrom + " until " + silenceUntil);
        }
        if (missShare < 0 || missShare > 1) {
            throw new IllegalArgumentException("the share missing a push is from 0 to 1, got " + missShare);
        }
        if (cohorts.cohorts() > orders) {
            throw new IllegalArgumentException(cohorts.cohorts() + " cohorts need as many orders, got " + orders);
        }
        if (stormAt.isNegative() || stormFor.isNegative()) {
            throw new IllegalArgumentException("a storm at " + stormAt + " for " + stormFor);
        }
        // an order silenced for good once the storm stopped its pushes would be judged by its last push before it
        if (!stormFor.isZero() && silenceUntil.plus(pushInterval).compareTo(stormAt) > 0) {
            throw new IllegalArgumentException("silences until " + silenceUntil + " run into the storm at " + stormAt
                    + " (a push interval before)");
        }
    }
}
