package io.lapse.compensator;

import io.lapse.store.OrderUpdate;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Order updates on the compensator's repartition topic: one byte of kind, eight of event time, then the orderId in
 * UTF-8. The kind is written as a letter of its own rather than the enum's ordinal, so that records still in the topic
 * read the same after the enum changes.
 */
final class OrderUpdateSerde {

    private OrderUpdateSerde() {
    }

    static Serde<OrderUpdate> serde() {
        return Serdes.serdeFrom((topic, update) -> update == null ? null : encode(update),
                (topic, bytes) -> bytes == null ? null : decode(bytes));
    }

    private static byte[] encode(OrderUpdate update) {
        byte[] id = update.orderId().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + Long.BYTES + id.length).put(code(update.kind())).putLong(update.eventTime())
                .put(id).array();
    }

    private static OrderUpdate decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        OrderUpdate.Kind kind = kind(buffer.get());
        long eventTime = buffer.getLong();
        String orderId = StandardCharsets.UTF_8.decode(buffer).toString();
        return new OrderUpdate(orderId, eventTime, kind);
    }

    private static byte code(OrderUpdate.Kind kind) {
        return switch (kind) {
            case ACTIVE -> 'a';
            case TERMINAL -> 't';
            case GONE -> 'g';
        };
    }

    private static OrderUpdate.Kind kind(byte code) {
        return switch (code) {
            case 'a' -> OrderUpdate.Kind.ACTIVE;
            case 't' -> OrderUpdate.Kind.TERMINAL;
            case 'g' -> OrderUpdate.Kind.GONE;
            default -> throw new IllegalArgumentException("unknown order update kind '" + (char) code + "'");
        };
    }
}
