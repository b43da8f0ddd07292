package io.lapse.compensator.mirror;

import io.lapse.event.OrderUpdate;

/**
 * One thing the compensator learns about an order from its input topics: a status, an expiry published, or a silence
 * its pushes had.
 */
public sealed interface MirrorInput permits MirrorInput.Status, MirrorInput.Silence, Fired {

    String orderId();

    /** @see OrderState#next */
    OrderState applyTo(OrderState current);

    /** A push or pull result, read by the same rules as ingest's. */
    record Status(OrderUpdate update) implements MirrorInput {

        @Override
        public String orderId() {
            return update.orderId();
        }

        @Override
        public OrderState applyTo(OrderState current) {
            return OrderState.next(current, update);
        }
    }

    /**
     * The push folder saw the order push at {@code endedBy} after more than the ttl without a push: the silence may
     * not have fired, if Redis lost its deadline or the watermark held it back until the push re-armed the order. The
     * mirror decides ({@link OrderState#unfiredSilence}); the order's state itself does not change: the push that ended
     * the silence comes as a status of its own.
     *
     * @param lastSeen the push the silence began with; {@link #UNKNOWN} when the folder read none before (its first
     *                 push after a round without one, or after a restart): then the newest status the mirror knows
     */
    record Silence(String orderId, long lastSeen, long endedBy) implements MirrorInput {

        public static final long UNKNOWN = 0;

        @Override
        public OrderState applyTo(OrderState current) {
            return current;
        }
    }
}
