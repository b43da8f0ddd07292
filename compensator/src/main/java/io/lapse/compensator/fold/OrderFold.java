package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import org.apache.kafka.streams.state.KeyValueStore;

/** How an input changes an order's mirror in the store: the one place that writes an order's state. */
final class OrderFold {

    private OrderFold() {}

    static void fold(KeyValueStore<String, OrderState> orders, String orderId, MirrorInput input) {
        OrderState current = orders.get(orderId);
        OrderState next = input.applyTo(current);
        if (next == current) {
            return; // nothing changed: spare the changelog a write
        }
        if (next == null) {
            orders.delete(orderId);
        } else {
            orders.put(orderId, next);
        }
    }
}
