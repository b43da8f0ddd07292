package io.lapse.operations.inspect;

import io.lapse.event.CohortName;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.StatusHeader;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KeyPartitions;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Progress;
import io.lapse.operations.kafka.Coordinate;
import io.lapse.operations.kafka.OffsetRange;
import io.lapse.operations.kafka.TopicScan;
import io.lapse.operations.kafka.Topics;
import io.lapse.operations.republish.CopyMark;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * What the topics say about one order, read within bounded time ranges: only the partitions its key lies in (for a
 * Java or a librdkafka producer), from the offsets the broker finds for the range's start to those of its end.
 */
final class OrderHistory {

    /**
     * One event of the order, with where it is in Kafka.
     *
     * @param copyOf where the original is, when this is a copy made by lapse replay or lapse dlq redrive
     */
    record Entry<T>(String at, long timestamp, T event, String copyOf) {}

    /** A status the order had, from a push or an OK pull. */
    record Status(String at, String status, Long ts) {}

    private final Connections connections;
    private final KafkaConsumer<byte[], byte[]> reader;
    private final byte[] key;

    OrderHistory(Connections connections, KafkaConsumer<byte[], byte[]> reader, String orderId) {
        this.connections = connections;
        this.reader = reader;
        this.key = orderId.getBytes(StandardCharsets.UTF_8);
    }

    /** The order's expiries in the time range, newest first. */
    List<Entry<TimerExpired>> expiries(long from, long to) {
        return decoded(connections.config().topics().expired(), from, to, JsonCodec.TIMER_EXPIRED::decode);
    }

    /** The order's pull results in the time range, newest first. */
    List<Entry<PullResult>> pulls(long from, long to) {
        return decoded(connections.config().topics().pulled(), from, to, JsonCodec.PULL_RESULT::decode);
    }

    /** The order's pushes in the time range, newest first. */
    List<Entry<StatusHeader>> pushes(long from, long to) {
        return decoded(connections.config().topics().push(), from, to, JsonCodec.STATUS_HEADER::decode);
    }

    /** The cohort its newest push since {@code from} names, or null when none does. */
    String cohort(CohortName name, long from) {
        List<Entry<String>> named =
                decoded(connections.config().topics().push(), from, OffsetRange.OPEN_END, value -> name.of(key, value));
        return named.isEmpty() ? null : named.get(0).event();
    }

    private <T> List<Entry<T>> decoded(String topic, long from, long to, Function<byte[], T> decode) {
        List<Entry<T>> found = new ArrayList<>();
        int partitions = Topics.partitions(connections, topic);
        List<OffsetRange> ranges = OffsetRange.of(reader, topic, KeyPartitions.of(key, partitions), from, to);
        TopicScan.read(
                reader,
                ranges,
                record -> {
                    if (Arrays.equals(key, record.key())) {
                        T event = decodeOrNull(record, decode);
                        if (event != null) {
                            Coordinate original = CopyMark.of(record.headers());
                            found.add(new Entry<>(
                                    Coordinate.of(record).toString(),
                                    record.timestamp(),
                                    event,
                                    original == null ? null : original.toString()));
                        }
                    }
                },
                Progress.NONE,
                connections.timeout());
        found.sort(Comparator.comparingLong((Entry<T> e) -> e.timestamp()).reversed());
        return found;
    }

    private static <T> T decodeOrNull(ConsumerRecord<byte[], byte[]> record, Function<byte[], T> decode) {
        try {
            return decode.apply(record.value());
        } catch (RuntimeException e) {
            return null; // a dead letter of some service; lapse dlq list shows it
        }
    }
}
