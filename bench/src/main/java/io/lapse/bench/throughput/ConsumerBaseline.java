package io.lapse.bench.throughput;

import io.lapse.bench.report.Rate;
import io.lapse.event.JsonCodec;
import io.lapse.kafka.KafkaClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The Kafka half of ingest alone: a plain consumer with ingest's poll size that reads and decodes every push as
 * ingest does (its header) and does nothing else. Ingest cannot be faster than this on the same broker and cores.
 */
public final class ConsumerBaseline {

    private static final Duration POLL = Duration.ofMillis(100);

    private ConsumerBaseline() {}

    public static Rate read(
            KafkaClients clients, String topic, int partitions, long records, int maxPollRecords, Duration limit) {
        long started = System.nanoTime();
        long deadline = started + limit.toNanos();
        long read = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer(
                "bench-baseline", "bench-baseline", Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords))) {
            List<TopicPartition> all = IntStream.range(0, partitions)
                    .mapToObj(p -> new TopicPartition(topic, p))
                    .toList();
            consumer.assign(all);
            consumer.seekToBeginning(all);
            while (read < records && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    JsonCodec.STATUS_HEADER.decode(record.value());
                    read++;
                }
            }
            return Rate.since(started, read, read >= records);
        }
    }
}
