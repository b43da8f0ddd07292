package io.lapse.ingest;

import io.lapse.event.Decoded;
import io.lapse.event.OrderUpdate;
import io.lapse.kafka.CopyHeader;
import io.lapse.store.watermarks.WatermarkReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What one poll means for Redis, decoded: the timer updates, the records to dead-letter, and the watermark report
 * that holds once the updates are applied. Idle polls make batches too, with a report only.
 *
 * @param first  per partition, the offset to read again from should the batch fail
 * @param next   per partition, the offset to commit once the batch is applied
 * @param report the watermarks as of this poll
 */
record PolledBatch(
        List<OrderUpdate> updates,
        List<Rejection> rejections,
        Map<TopicPartition, Long> first,
        Map<TopicPartition, OffsetAndMetadata> next,
        WatermarkReport report) {

    /** A record that breaks the contract, and why. */
    record Rejection(ConsumerRecord<byte[], byte[]> record, String reason) {}

    /** @param report the watermark report, asked for once the poll's records are read */
    static PolledBatch read(
            ConsumerRecords<byte[], byte[]> records,
            RecordReader reader,
            PartitionProgress progress,
            IngestMetrics metrics,
            long readTime,
            Supplier<WatermarkReport> report) {
        List<OrderUpdate> updates = new ArrayList<>(records.count());
        List<Rejection> rejections = new ArrayList<>();
        Map<TopicPartition, Long> first = new HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        reader.polled(readTime);
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> batch = records.records(partition);
            metrics.read(partition.topic(), batch.size());
            first.put(partition, batch.get(0).offset());
            next.put(
                    partition, new OffsetAndMetadata(batch.get(batch.size() - 1).offset() + 1));
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                // a copy on-call published (lapse replay, lapse dlq redrive) carries its original's timestamp: it
                // says nothing of how late its partition's producers are, and its age must not hold the fleet back
                PartitionProgress.Reading time = CopyHeader.origin(record.headers()) == null
                        ? progress.consumed(partition, record.timestamp(), readTime)
                        : PartitionProgress.Reading.NOTHING;
                if (time.late()) {
                    metrics.lateRecord(partition.topic());
                }
                if (time.behindBy() > 0) {
                    metrics.behindMark(time.behindBy());
                }
                if (time.aheadBy() > 0) {
                    metrics.recordAhead(partition, time.aheadBy());
                }
                Decoded<OrderUpdate> reading = reader.read(record, readTime);
                if (reading.value() != null) {
                    updates.add(reading.value());
                } else if (reading.isRejected()) {
                    rejections.add(new Rejection(record, reading.rejection()));
                }
            }
        }
        return new PolledBatch(updates, rejections, first, next, report.get());
    }
}
