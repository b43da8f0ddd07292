package io.lapse.faults.soak;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Lag of a consumer group in records (end offsets minus committed offsets) and in seconds: the age of the first record
 * it has not committed, read back from each lagging partition. Partitions it never committed are left out.
 */
final class LagProbe implements AutoCloseable {

    private static final Duration READ_TIMEOUT = Duration.ofMillis(500);

    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> reader;

    LagProbe(Admin admin, String bootstrapServers) {
        this.admin = admin;
        this.reader =
                ByteConsumers.create(bootstrapServers, Map.of(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1024));
    }

    GroupLag lag(String group) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            committed.forEach((partition, offset) -> {
                if (offset != null) {
                    latest.put(partition, OffsetSpec.latest());
                }
            });
            if (latest.isEmpty()) {
                return new GroupLag(0, 0);
            }
            Map<TopicPartition, ListOffsetsResultInfo> ends =
                    admin.listOffsets(latest).all().get();
            long records = 0;
            Map<TopicPartition, Long> lagging = new HashMap<>();
            for (TopicPartition partition : latest.keySet()) {
                long at = committed.get(partition).offset();
                long behind = Math.max(0, ends.get(partition).offset() - at);
                records += behind;
                if (behind > 0) {
                    lagging.put(partition, at);
                }
            }
            return new GroupLag(records, oldestAgeSeconds(lagging));
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the lag of " + group, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the lag of " + group, e);
        }
    }

    /**
     * Reads the first uncommitted record of every lagging partition. A partition whose lag is only a transaction marker
     * (the compensator commits through transactions) has no record to read: it adds no age.
     */
    private double oldestAgeSeconds(Map<TopicPartition, Long> lagging) {
        if (lagging.isEmpty()) {
            return 0;
        }
        reader.assign(lagging.keySet());
        lagging.forEach(reader::seek);
        Set<TopicPartition> unread = new HashSet<>(lagging.keySet());
        long oldest = Long.MAX_VALUE;
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (!unread.isEmpty() && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(100))) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                if (unread.remove(partition)) {
                    oldest = Math.min(oldest, record.timestamp());
                    reader.pause(Set.of(partition));
                }
            }
        }
        reader.resume(reader.paused());
        return oldest == Long.MAX_VALUE ? 0 : Math.max(0, System.currentTimeMillis() - oldest) / 1000.0;
    }

    @Override
    public void close() {
        reader.close(Duration.ofSeconds(5));
    }
}
