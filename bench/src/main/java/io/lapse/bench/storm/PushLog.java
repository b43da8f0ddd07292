package io.lapse.bench.storm;

import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.kafka.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * The pushes of a run's last stretch, read once it is over: a run-long recorder would hold every push of the
 * warm-up, which the false-expiry check does not need.
 */
public final class PushLog {

    private static final Duration POLL = Duration.ofMillis(500);

    private PushLog() {}

    /** How a push is timed: by the ts it carries, or by when it was sent (its record's CreateTime). */
    public enum Timing {
        TS,
        /**
         * For fleets whose pushes may be sent after their ts (a simulated order's terminal push carries the moment it
         * finished, and goes out at its phase of the round): a push cannot move a deadline before it is sent.
         */
        SENT
    }

    /** @return orderId → ts of its pushes written from {@code from} (epoch ms, by record time) on, sorted */
    public static Map<String, long[]> since(KafkaClients clients, String topic, long from) {
        return since(clients, topic, from, Timing.TS);
    }

    /** @return orderId → times of its pushes written from {@code from} (epoch ms, by record time) on, sorted */
    public static Map<String, long[]> since(KafkaClients clients, String topic, long from, Timing timing) {
        Map<String, List<Long>> times = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer(null, "lapse-bench-push-log", Map.of())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Map<TopicPartition, OffsetAndTimestamp> start =
                    consumer.offsetsForTimes(partitions.stream().collect(Collectors.toMap(p -> p, p -> from)));
            for (TopicPartition partition : partitions) {
                OffsetAndTimestamp offset = start.get(partition);
                consumer.seek(partition, offset == null ? end.get(partition) : offset.offset());
            }
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    try {
                        StatusPush push = JsonCodec.STATUS_PUSH.decode(record.value());
                        times.computeIfAbsent(push.orderId(), id -> new ArrayList<>())
                                .add(push.ts() == null || timing == Timing.SENT ? record.timestamp() : push.ts());
                    } catch (InvalidRecordException e) {
                        // not a push ingest would apply, so it moves no deadline
                    }
                }
            }
        }
        Map<String, long[]> sorted = new HashMap<>();
        times.forEach((id, list) ->
                sorted.put(id, list.stream().mapToLong(Long::longValue).sorted().toArray()));
        return sorted;
    }
}
