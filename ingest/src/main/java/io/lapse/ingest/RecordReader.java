package io.lapse.ingest;

import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.event.Decoded;
import io.lapse.store.OrderUpdate;
import io.lapse.store.StatusReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads a consumed push or pull result with the shared StatusReader. A record that breaks the contract is rejected,
 * and so is one that makes decoding fail in any other way: whatever its bytes are, one record never stops ingest.
 */
final class RecordReader {

    private final TopicNames topics;
    private final StatusReader reader;

    RecordReader(TopicNames topics, TimerSettings timer, IngestMetrics metrics) {
        this.topics = topics;
        this.reader = new StatusReader(timer, metrics::eventTimeCorrected);
    }

    /** @param readTime when ingest read the record, by its own clock */
    /** @return the record's update of its order's timer: none for a record that changes nothing, or a rejection */
    Decoded<OrderUpdate> read(ConsumerRecord<byte[], byte[]> record, long readTime) {
        return Decoded.of(() -> record.topic().equals(topics.push())
                ? reader.push(record.key(), record.value(), record.timestamp(), readTime)
                : reader.pull(record.key(), record.value(), record.timestamp(), readTime));
    }
}
