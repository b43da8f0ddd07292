package io.lapse.compensator.mirror;

import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Order states in the store and its changelog, kept small because the store holds every order: a letter, lastSeen,
 * then what the letter needs ('A' watched, nothing fired: nothing more; 'F' fired: attempt, deadline, firedAt,
 * given up; 'E' ended and 'N' NOT_FOUND: when). Version 0.1 wrote lastSeen and an ended flag, nine bytes starting
 * with a zero (a lastSeen before the year 2248), which still read.
 */
public final class OrderStateSerde {

    private static final int LEGACY_SIZE = Long.BYTES + 1;

    private OrderStateSerde() {}

    public static Serde<OrderState> serde() {
        return Serdes.serdeFrom(
                (topic, state) -> state == null ? null : encode(state),
                (topic, bytes) -> bytes == null ? null : decode(bytes));
    }

    static byte[] encode(OrderState state) {
        return switch (state.phase()) {
            case ACTIVE ->
                state.fired() == 0
                        ? ByteBuffer.allocate(1 + Long.BYTES)
                                .put((byte) 'A')
                                .putLong(state.lastSeen())
                                .array()
                        : ByteBuffer.allocate(1 + Long.BYTES * 4 + Integer.BYTES + 1)
                                .put((byte) 'F')
                                .putLong(state.lastSeen())
                                .putInt(state.fired())
                                .putLong(state.firedDeadline())
                                .putLong(state.firedAt())
                                .put((byte) (state.givenUp() ? 1 : 0))
                                .array();
            case ENDED, GONE ->
                ByteBuffer.allocate(1 + Long.BYTES * 2)
                        .put((byte) (state.phase() == OrderState.Phase.ENDED ? 'E' : 'N'))
                        .putLong(state.lastSeen())
                        .putLong(state.endedAt())
                        .array();
        };
    }

    static OrderState decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (bytes.length == LEGACY_SIZE && bytes[0] == 0) {
            long lastSeen = buffer.getLong();
            return buffer.get() != 0
                    ? new OrderState(OrderState.Phase.ENDED, lastSeen, 0, 0, 0, false, lastSeen)
                    : OrderState.active(lastSeen);
        }
        byte letter = buffer.get();
        long lastSeen = buffer.getLong();
        return switch (letter) {
            case 'A' -> OrderState.active(lastSeen);
            case 'F' ->
                new OrderState(
                        OrderState.Phase.ACTIVE,
                        lastSeen,
                        buffer.getInt(),
                        buffer.getLong(),
                        buffer.getLong(),
                        buffer.get() != 0,
                        0);
            case 'E' -> new OrderState(OrderState.Phase.ENDED, lastSeen, 0, 0, 0, false, buffer.getLong());
            case 'N' -> new OrderState(OrderState.Phase.GONE, lastSeen, 0, 0, 0, false, buffer.getLong());
            default -> throw new IllegalArgumentException("unknown order state '" + (char) letter + "'");
        };
    }
}
