package io.lapse.ingest;

import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.event.CohortName;
import io.lapse.event.Decoded;
import io.lapse.event.FieldCapture;
import io.lapse.event.OrderUpdate;
import io.lapse.event.StatusReader;
import io.lapse.ingest.fleet.CohortTally;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads a consumed push or pull result with the shared StatusReader. A record that breaks the contract is rejected,
 * and so is one that makes decoding fail in any other way: whatever its bytes are, one record never stops ingest.
 * When cohorts are told, each push read is counted for its cohort, from the same scan of its bytes.
 */
final class RecordReader {

    private final TopicNames topics;
    private final StatusReader reader;
    /** Null when no cohort is told (fleet.cohort-field unset); then so is the tally. */
    private final CohortName cohort;

    private final FieldCapture capture;
    private final CohortTally tally;

    RecordReader(TopicNames topics, TimerSettings timer, IngestMetrics metrics) {
        this(topics, timer, metrics, null, null);
    }

    /**
     * @param cohort where a push names its cohort; null for none
     * @param tally  counts each push read for its cohort; null exactly when {@code cohort} is
     */
    RecordReader(TopicNames topics, TimerSettings timer, IngestMetrics metrics, CohortName cohort, CohortTally tally) {
        if ((cohort == null) != (tally == null)) {
            throw new IllegalArgumentException("a cohort's name is read to be counted: both or neither");
        }
        this.topics = topics;
        this.reader = new StatusReader(timer, metrics::eventTimeCorrected);
        this.cohort = cohort;
        this.capture = cohort == null ? null : cohort.capture();
        this.tally = tally;
    }

    /** A poll was read at {@code readTime}, by ingest's own clock: what is counted from now on counts then. */
    void polled(long readTime) {
        if (tally != null) {
            tally.at(readTime);
        }
    }

    /** @param readTime when ingest read the record, by its own clock */
    /** @return the record's update of its order's timer: none for a record that changes nothing, or a rejection */
    Decoded<OrderUpdate> read(ConsumerRecord<byte[], byte[]> record, long readTime) {
        if (!record.topic().equals(topics.push())) {
            return Decoded.of(() -> reader.pull(record.key(), record.value(), record.timestamp(), readTime));
        }
        Decoded<OrderUpdate> read =
                Decoded.of(() -> reader.push(record.key(), record.value(), record.timestamp(), readTime, capture));
        if (tally != null && read.value() != null) {
            boolean ended = read.value().kind() == OrderUpdate.Kind.TERMINAL;
            if (cohort.locate(record.key())) {
                tally.count(cohort.source(), cohort.from(), cohort.to(), ended);
            } else {
                tally.countWithoutCohort(ended);
            }
        }
        return read;
    }
}
