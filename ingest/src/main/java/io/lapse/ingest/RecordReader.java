package io.lapse.ingest;

import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.store.OrderUpdate;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.charset.StandardCharsets;

/**
 * Turns a status push or a pull result into an update of the order's timer, applying the contract's rules: the key
 * must match the orderId, a missing ts falls back to the record timestamp, a ts too far in the future is clamped.
 */
final class RecordReader {

    private final TopicNames topics;
    private final TimerSettings timer;

    RecordReader(TopicNames topics, TimerSettings timer) {
        this.topics = topics;
        this.timer = timer;
    }

    /** @param readTime when ingest read the record, by its own clock */
    Reading read(ConsumerRecord<byte[], byte[]> record, long readTime) {
        try {
            if (record.topic().equals(topics.push())) {
                StatusPush push = JsonCodec.STATUS_PUSH.decode(record.value());
                requireKeyMatches(record, push.orderId());
                return Reading.of(fromStatus(push, record, readTime));
            }
            PullResult pull = JsonCodec.PULL_RESULT.decode(record.value());
            requireKeyMatches(record, pull.orderId());
            return switch (pull.outcome()) {
                case OK -> Reading.of(fromStatus(pull.status(), record, readTime));
                case NOT_FOUND -> Reading.of(OrderUpdate.gone(pull.orderId(), clamp(pull.pulledAt(), readTime)));
                case FAILED, SKIPPED -> Reading.NOTHING;
            };
        } catch (InvalidRecordException e) {
            return Reading.rejected(e.getMessage());
        }
    }

    private OrderUpdate fromStatus(StatusPush status, ConsumerRecord<byte[], byte[]> record, long readTime) {
        long ts = status.ts() != null ? status.ts() : (record.timestamp() >= 0 ? record.timestamp() : readTime);
        long eventTime = clamp(ts, readTime);
        return timer.isTerminal(status.status())
                ? OrderUpdate.terminal(status.orderId(), eventTime)
                : OrderUpdate.active(status.orderId(), eventTime);
    }

    private long clamp(long eventTime, long readTime) {
        return eventTime > readTime + timer.maxClockSkew().toMillis() ? readTime : eventTime;
    }

    private static void requireKeyMatches(ConsumerRecord<byte[], byte[]> record, String orderId) {
        if (record.key() != null) {
            String key = new String(record.key(), StandardCharsets.UTF_8);
            if (!key.equals(orderId)) {
                throw new InvalidRecordException("record key '" + key + "' differs from orderId '" + orderId + "'");
            }
        }
    }
}
