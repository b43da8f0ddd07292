package io.lapse.ingest;

import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.event.InvalidRecordException;
import io.lapse.store.OrderUpdate;
import io.lapse.store.StatusReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Reads a consumed push or pull result with the shared StatusReader; a record that breaks the contract is rejected. */
final class RecordReader {

    private final TopicNames topics;
    private final StatusReader reader;

    RecordReader(TopicNames topics, TimerSettings timer) {
        this.topics = topics;
        this.reader = new StatusReader(timer);
    }

    /** @param readTime when ingest read the record, by its own clock */
    Reading read(ConsumerRecord<byte[], byte[]> record, long readTime) {
        try {
            OrderUpdate update = record.topic().equals(topics.push())
                    ? reader.push(record.key(), record.value(), record.timestamp(), readTime)
                    : reader.pull(record.key(), record.value(), record.timestamp(), readTime);
            return update == null ? Reading.NOTHING : Reading.of(update);
        } catch (InvalidRecordException e) {
            return Reading.rejected(e.getMessage());
        }
    }
}
