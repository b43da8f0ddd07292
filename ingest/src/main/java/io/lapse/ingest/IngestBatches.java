package io.lapse.ingest;

import io.lapse.kafka.DeadLetterSink;
import io.lapse.store.ApplyResult;
import io.lapse.store.OrderUpdate;
import io.lapse.store.TimerStore;
import io.lapse.store.Watermarks;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One poll's worth of records, applied: updates to Redis, bad records to the dead-letter topic, then the partitions'
 * watermarks, then the offsets. A batch that fails is rewound so that the next poll reads it again.
 */
final class IngestBatches {

    private static final Logger log = LoggerFactory.getLogger(IngestBatches.class);
    // short, so that the watermark of a quiet but fully read partition keeps up with the clock
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(20);
    private static final long ACK_TIMEOUT_SECONDS = 30;

    private final Consumer<byte[], byte[]> consumer;
    private final RecordReader reader;
    private final TimerStore store;
    private final Watermarks watermarks;
    private final DeadLetterSink deadLetters;
    private final IngestMetrics metrics;
    private final Clock clock;
    private final PartitionProgress progress = new PartitionProgress();
    private final Map<TopicPartition, OffsetAndMetadata> applied = new HashMap<>();

    IngestBatches(Consumer<byte[], byte[]> consumer, RecordReader reader, TimerStore store, Watermarks watermarks,
                  DeadLetterSink deadLetters, IngestMetrics metrics, Clock clock) {
        this.consumer = consumer;
        this.reader = reader;
        this.store = store;
        this.watermarks = watermarks;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.clock = clock;
    }

    void next() throws Exception {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL_TIMEOUT);
        long pollTime = clock.millis();
        try {
            if (!records.isEmpty()) {
                metrics.batch.recordCallable(() -> apply(records, pollTime));
            }
            watermarks.report(progress.watermarks(consumer.assignment(), consumer::currentLag, pollTime))
                    .get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            rewind(records);
            throw e;
        }
        if (!records.isEmpty()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = nextOffsets(records);
            applied.putAll(offsets);
            consumer.commitAsync(offsets, (committed, error) -> {
                if (error != null) {
                    log.warn("committing ingest offsets failed; the next commit covers them", error);
                }
            });
        }
    }

    private Void apply(ConsumerRecords<byte[], byte[]> records, long pollTime) throws Exception {
        List<OrderUpdate> updates = new ArrayList<>(records.count());
        List<CompletableFuture<Void>> letters = new ArrayList<>();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> batch = records.records(partition);
            metrics.read(partition.topic(), batch.size());
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                progress.consumed(partition, record.timestamp(), pollTime);
                Reading reading = reader.read(record, pollTime);
                if (reading.update() != null) {
                    updates.add(reading.update());
                } else if (reading.rejection() != null) {
                    letters.add(deadLetters.send(record, reading.rejection()));
                }
            }
        }
        ApplyResult result = updates.isEmpty() ? ApplyResult.NONE
                : store.apply(updates).get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        metrics.applied(result);
        CompletableFuture.allOf(letters.toArray(CompletableFuture[]::new)).get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return null;
    }

    private void rewind(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition partition : records.partitions()) {
            consumer.seek(partition, records.records(partition).get(0).offset());
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(ConsumerRecords<byte[], byte[]> records) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> batch = records.records(partition);
            offsets.put(partition, new OffsetAndMetadata(batch.get(batch.size() - 1).offset() + 1));
        }
        return offsets;
    }

    ConsumerRebalanceListener rebalanceListener() {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                Map<TopicPartition, OffsetAndMetadata> leaving = new HashMap<>();
                partitions.forEach(p -> {
                    OffsetAndMetadata offset = applied.remove(p);
                    if (offset != null) {
                        leaving.put(p, offset);
                    }
                });
                if (!leaving.isEmpty()) {
                    consumer.commitSync(leaving);
                }
                progress.forget(partitions);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                // another member owns them already: committing would fail, and their offsets are its concern now
                partitions.forEach(applied::remove);
                progress.forget(partitions);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                log.info("ingest reads {}", partitions);
            }
        };
    }
}
