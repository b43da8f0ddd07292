package io.lapse.compensator.mirror;

import io.lapse.event.TimerExpired;

/**
 * An expiry the timer published, as the compensator's mirror needs it.
 *
 * @param last whether it was the final attempt, after which the order is given up
 */
public record Fired(String orderId, long lastSeen, int attempt, long deadline, long firedAt, boolean last)
        implements MirrorInput {

    public static Fired of(TimerExpired expiry) {
        return new Fired(
                expiry.orderId(),
                expiry.lastSeen(),
                expiry.attempt(),
                expiry.deadline(),
                expiry.firedAt(),
                expiry.finalAttempt());
    }

    @Override
    public OrderState applyTo(OrderState current) {
        return OrderState.next(current, this);
    }
}
