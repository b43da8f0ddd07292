package io.lapse.compensator.mirror;

import io.lapse.event.OrderUpdate;

/** One thing the compensator learns about an order from its input topics: a status, or an expiry published. */
public sealed interface MirrorInput permits MirrorInput.Status, Fired {

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
}
