package io.lapse.store.timers;

import io.lapse.event.TimerExpired;

/**
 * One expiry a timer instance holds a lease on: it publishes it, then acknowledges it.
 *
 * @param firedAt Redis's clock at the claim
 */
public record Claim(
        String orderId,
        long lastSeen,
        int attempt,
        long deadline,
        TimerExpired.Source source,
        long firedAt,
        boolean finalAttempt) {

    public TimerExpired toEvent() {
        return new TimerExpired(orderId, deadline, lastSeen, attempt, firedAt, source, finalAttempt);
    }
}
