package io.lapse.compensator;

import io.lapse.store.OrderUpdate;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

import java.nio.ByteBuffer;

/**
 * What the compensator remembers of one order. Ended orders stay as tombstones until the retention passes, so that
 * a replayed older status cannot revive them.
 *
 * @param lastSeen event time (ms) of the newest status known
 */
record OrderState(long lastSeen, boolean ended) {

    /** 8 bytes of lastSeen and 1 of ended: the store holds every active order, so each entry is kept small. */
    private static final int SIZE = Long.BYTES + 1;

    /**
     * The state after an update, by the timer store's rules (see arm.lua): a newer status wins, a terminal status
     * ends the order for good, and a NOT_FOUND pull forgets it unless a newer status is known.
     *
     * @param current null when the order is unknown
     * @return {@code current} itself when nothing changes, or null when the order is to be forgotten
     */
    static OrderState next(OrderState current, OrderUpdate update) {
        long time = update.eventTime();
        return switch (update.kind()) {
            case TERMINAL -> new OrderState(current == null ? time : Math.max(current.lastSeen, time), true);
            case ACTIVE -> current == null || (!current.ended && time > current.lastSeen)
                    ? new OrderState(time, false) : current;
            case GONE -> current == null || current.ended || current.lastSeen > time ? current : null;
        };
    }

    static Serde<OrderState> serde() {
        return Serdes.serdeFrom(
                (topic, state) -> state == null ? null
                        : ByteBuffer.allocate(SIZE).putLong(state.lastSeen).put((byte) (state.ended ? 1 : 0)).array(),
                (topic, bytes) -> {
                    if (bytes == null) {
                        return null;
                    }
                    if (bytes.length != SIZE) {
                        throw new IllegalArgumentException("an order state has " + SIZE + " bytes, not " + bytes.length);
                    }
                    ByteBuffer buffer = ByteBuffer.wrap(bytes);
                    return new OrderState(buffer.getLong(), buffer.get() != 0);
                });
    }
}
