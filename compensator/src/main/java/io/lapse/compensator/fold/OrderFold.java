package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import org.apache.kafka.streams.state.KeyValueStore;

/** How an input changes an order's mirror in the store: the one place that writes an order's state. */
final class OrderFold {

    private OrderFold() {}

    /**
     * @param now wall-clock time, when a silence the input reports is noted
     * @return whether the input noted a silence that may never have fired ({@link UnfiredSilences})
     */
    static boolean fold(
            KeyValueStore<String, OrderState> orders,
            UnfiredSilences silences,
            String orderId,
            MirrorInput input,
            long now) {
        OrderState current = orders.get(orderId);
        if (input instanceof MirrorInput.Silence silence) {
            return silences.note(orderId, current, silence, now);
        }
        boolean noted =
                input instanceof MirrorInput.Resumed resumed && silences.note(orderId, current, resumed.silence(), now);
        silences.clear(orderId, input);
        OrderState next = input.applyTo(current);
        if (next == current) {
            return noted; // nothing changed: spare the changelog a write
        }
        if (next == null) {
            orders.delete(orderId);
        } else {
            orders.put(orderId, next);
        }
        return noted;
    }
}
