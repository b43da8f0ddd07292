package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Fired;
import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.event.OrderUpdate;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Mirror inputs on the compensator's repartition topic. A status: one letter of kind, eight bytes of event time, the
 * orderId in UTF-8. An expiry: 'x', lastSeen, attempt, deadline, firedAt, final, the orderId. A silence: 's', lastSeen,
 * the time of the push that ended it, the orderId. A resumed order's status: its kind's letter in upper case, its
 * event time, the time of the first push read, the orderId. A pulled status: 'p', its kind's letter, its event time, the
 * orderId. The push folder's word on how far it read: 'r', up to when, the push topic's partition count, the number of
 * partitions it covers and each of them. Letters rather than the enum's ordinal, so that records still in the topic
 * read the same after the enum changes.
 */
final class MirrorInputSerde {

    private static final byte FIRED = 'x';
    private static final int FIRED_FIELDS = Long.BYTES + Integer.BYTES + Long.BYTES + Long.BYTES + 1;
    private static final byte SILENCE = 's';
    private static final byte PULLED = 'p';
    private static final byte PUSHES_READ = 'r';

    private MirrorInputSerde() {}

    static Serde<MirrorInput> serde() {
        return Serdes.serdeFrom(
                (topic, input) -> input == null ? null : encode(input),
                (topic, bytes) -> bytes == null ? null : decode(bytes));
    }

    private static byte[] encode(MirrorInput input) {
        if (input instanceof MirrorInput.PushesRead read) {
            ByteBuffer buffer = ByteBuffer.allocate(1
                            + Long.BYTES
                            + Integer.BYTES * (2 + read.partitions().size()))
                    .put(PUSHES_READ)
                    .putLong(read.upTo())
                    .putInt(read.topicPartitions())
                    .putInt(read.partitions().size());
            read.partitions().forEach(buffer::putInt);
            return buffer.array();
        }
        byte[] id = input.orderId().getBytes(StandardCharsets.UTF_8);
        if (input instanceof Fired fired) {
            return ByteBuffer.allocate(1 + FIRED_FIELDS + id.length)
                    .put(FIRED)
                    .putLong(fired.lastSeen())
                    .putInt(fired.attempt())
                    .putLong(fired.deadline())
                    .putLong(fired.firedAt())
                    .put((byte) (fired.last() ? 1 : 0))
                    .put(id)
                    .array();
        }
        if (input instanceof MirrorInput.Silence silence) {
            return ByteBuffer.allocate(1 + Long.BYTES * 2 + id.length)
                    .put(SILENCE)
                    .putLong(silence.lastSeen())
                    .putLong(silence.endedBy())
                    .put(id)
                    .array();
        }
        if (input instanceof MirrorInput.Resumed resumed) {
            return ByteBuffer.allocate(1 + Long.BYTES * 2 + id.length)
                    .put((byte) Character.toUpperCase(code(resumed.update().kind())))
                    .putLong(resumed.update().eventTime())
                    .putLong(resumed.endedBy())
                    .put(id)
                    .array();
        }
        if (input instanceof MirrorInput.Pulled pulled) {
            return ByteBuffer.allocate(2 + Long.BYTES + id.length)
                    .put(PULLED)
                    .put(code(pulled.update().kind()))
                    .putLong(pulled.update().eventTime())
                    .put(id)
                    .array();
        }
        OrderUpdate update = ((MirrorInput.Status) input).update();
        return ByteBuffer.allocate(1 + Long.BYTES + id.length)
                .put(code(update.kind()))
                .putLong(update.eventTime())
                .put(id)
                .array();
    }

    private static MirrorInput decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        byte code = buffer.get();
        if (code == FIRED) {
            long lastSeen = buffer.getLong();
            int attempt = buffer.getInt();
            long deadline = buffer.getLong();
            long firedAt = buffer.getLong();
            boolean last = buffer.get() != 0;
            return new Fired(orderId(bytes, buffer.position()), lastSeen, attempt, deadline, firedAt, last);
        }
        if (code == SILENCE) {
            long lastSeen = buffer.getLong();
            long endedBy = buffer.getLong();
            return new MirrorInput.Silence(orderId(bytes, buffer.position()), lastSeen, endedBy);
        }
        if (code == PULLED) {
            OrderUpdate.Kind kind = kind(buffer.get());
            long eventTime = buffer.getLong();
            return new MirrorInput.Pulled(new OrderUpdate(orderId(bytes, buffer.position()), eventTime, kind));
        }
        if (code == PUSHES_READ) {
            long upTo = buffer.getLong();
            int topicPartitions = buffer.getInt();
            Set<Integer> partitions = new HashSet<>();
            for (int i = buffer.getInt(); i > 0; i--) {
                partitions.add(buffer.getInt());
            }
            return new MirrorInput.PushesRead(upTo, topicPartitions, partitions);
        }
        if (Character.isUpperCase(code)) {
            OrderUpdate.Kind kind = kind((byte) Character.toLowerCase(code));
            long eventTime = buffer.getLong();
            long endedBy = buffer.getLong();
            return new MirrorInput.Resumed(
                    new OrderUpdate(orderId(bytes, buffer.position()), eventTime, kind), endedBy);
        }
        OrderUpdate.Kind kind = kind(code);
        long eventTime = buffer.getLong();
        return new MirrorInput.Status(new OrderUpdate(orderId(bytes, buffer.position()), eventTime, kind));
    }

    /** The rest of the record from {@code start}; straight from the array, without a CharBuffer in between. */
    private static String orderId(byte[] bytes, int start) {
        return new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8);
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
            default -> throw new IllegalArgumentException("unknown mirror input '" + (char) code + "'");
        };
    }
}
