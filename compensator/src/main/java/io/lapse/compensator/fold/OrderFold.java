package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.config.TimerSettings;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * How an input changes an order's mirror in a task's stores: the one place that writes an order's state and notes the
 * silences that may never have fired.
 */
final class OrderFold {

    private final KeyValueStore<String, OrderState> orders;
    private final UnfiredSilences unfired;
    private final PulledSilences pulled;

    private OrderFold(KeyValueStore<String, OrderState> orders, UnfiredSilences unfired, PulledSilences pulled) {
        this.orders = orders;
        this.unfired = unfired;
        this.pulled = pulled;
    }

    /** The fold of the task the context is a processor's of. */
    static OrderFold of(ProcessingContext context, TimerSettings timer) {
        return new OrderFold(
                context.getStateStore(CompensatorTopology.STORE),
                new UnfiredSilences(context.getStateStore(CompensatorTopology.UNFIRED_SILENCES), timer),
                new PulledSilences(context.getStateStore(CompensatorTopology.PULLED_SILENCES), timer.ttl()));
    }

    KeyValueStore<String, OrderState> orders() {
        return orders;
    }

    UnfiredSilences unfired() {
        return unfired;
    }

    PulledSilences pulled() {
        return pulled;
    }

    /** The order's state; null when the mirror does not know it. */
    OrderState current(String orderId) {
        return orders.get(orderId);
    }

    /**
     * @param current the order's state as {@link #current} read it, just before
     * @param now     wall-clock time, when a silence the input reports is noted
     * @return whether the input noted a silence that may never have fired ({@link UnfiredSilences}, {@link
     *     PulledSilences})
     */
    boolean fold(String orderId, OrderState current, MirrorInput input, long now) {
        pulled.learn(orderId, input);
        if (input instanceof MirrorInput.Silence silence) {
            return unfired.note(orderId, current, silence, now);
        }
        boolean noted = input instanceof MirrorInput.Resumed resumed
                ? unfired.note(orderId, current, resumed.silence(), now)
                : pulled.note(orderId, current, input, now);
        unfired.clear(orderId, input);
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
