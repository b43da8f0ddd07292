package io.lapse.bench;

import io.lapse.devstack.TopicRecorder;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;

/**
 * The expired topic of a run, read from its beginning while the run goes on. Its records carry the broker's append
 * time (the topic is created with LogAppendTime), which is when Kafka acknowledged each expiry; a record with any
 * other timestamp type is counted, because its lateness would mean nothing.
 */
public final class ExpiryCollector implements AutoCloseable {

    /**
     * One expiry as read back: {@code orderId} is empty when the value was not a valid TimerExpired.
     *
     * @param firedAt    when the timer claimed it, by Redis's clock
     * @param appendTime when Kafka appended it
     */
    public record Expiry(String orderId, long deadline, int attempt, long firedAt, long appendTime) {}

    private final TopicRecorder recorder;
    // the recorder only appends: each record is decoded once, not at every look during the run
    private final List<Expiry> decoded = new ArrayList<>();

    private ExpiryCollector(TopicRecorder recorder) {
        this.recorder = recorder;
    }

    public static ExpiryCollector start(String bootstrapServers, String topic) {
        return new ExpiryCollector(TopicRecorder.start(bootstrapServers, topic));
    }

    public synchronized List<Expiry> expiries() {
        List<ConsumerRecord<byte[], byte[]>> records = recorder.records();
        for (int i = decoded.size(); i < records.size(); i++) {
            decoded.add(expiry(records.get(i)));
        }
        return List.copyOf(decoded);
    }

    private static Expiry expiry(ConsumerRecord<byte[], byte[]> record) {
        try {
            TimerExpired event = JsonCodec.TIMER_EXPIRED.decode(record.value());
            return new Expiry(event.orderId(), event.deadline(), event.attempt(), event.firedAt(), record.timestamp());
        } catch (InvalidRecordException e) {
            return new Expiry("", 0, 0, 0, record.timestamp());
        }
    }

    long withoutAppendTime() {
        return recorder.records().stream()
                .filter(r -> r.timestampType() != TimestampType.LOG_APPEND_TIME)
                .count();
    }

    @Override
    public void close() {
        recorder.close();
    }
}
