package io.lapse.store;

import io.lapse.config.TimerSettings;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.StatusHeader;

import java.nio.charset.StandardCharsets;

/**
 * Reads a status push or a pull result as an update of the order's timer, by the contract's rules: the key must match
 * the orderId, a missing ts falls back to the record timestamp, and a ts too far in the future is clamped to the time
 * the record was read. Ingest and the compensator both read with it, so that they agree on every order.
 */
public final class StatusReader {

    /** How one topic's records turn into updates. */
    @FunctionalInterface
    public interface Read {
        /**
         * @return the update, or null when the record changes nothing
         * @throws InvalidRecordException when the record breaks the contract
         */
        OrderUpdate read(byte[] key, byte[] value, long recordTime, long readTime);
    }

    private final TimerSettings timer;

    public StatusReader(TimerSettings timer) {
        this.timer = timer;
    }

    /** @throws InvalidRecordException when the record breaks the contract */
    public OrderUpdate push(byte[] key, byte[] value, long recordTime, long readTime) {
        StatusHeader push = JsonCodec.STATUS_HEADER.decode(value);
        requireKeyMatches(key, push.orderId());
        return fromStatus(push, recordTime, readTime);
    }

    /**
     * @return the update, or null for a pull that changes nothing (FAILED, SKIPPED)
     * @throws InvalidRecordException when the record breaks the contract
     */
    public OrderUpdate pull(byte[] key, byte[] value, long recordTime, long readTime) {
        PullResult pull = JsonCodec.PULL_RESULT.decode(value);
        requireKeyMatches(key, pull.orderId());
        return switch (pull.outcome()) {
            case OK -> fromStatus(pull.status().header(), recordTime, readTime);
            case NOT_FOUND -> OrderUpdate.gone(pull.orderId(), clamp(pull.pulledAt(), readTime));
            case FAILED, SKIPPED -> null;
        };
    }

    private OrderUpdate fromStatus(StatusHeader status, long recordTime, long readTime) {
        long ts = status.ts() != null ? status.ts() : (recordTime >= 0 ? recordTime : readTime);
        long eventTime = clamp(ts, readTime);
        return timer.isTerminal(status.status())
                ? OrderUpdate.terminal(status.orderId(), eventTime)
                : OrderUpdate.active(status.orderId(), eventTime);
    }

    private long clamp(long eventTime, long readTime) {
        return eventTime > readTime + timer.maxClockSkew().toMillis() ? readTime : eventTime;
    }

    /** @throws InvalidRecordException when the record has a key and it is not the orderId */
    public static void requireKeyMatches(byte[] key, String orderId) {
        if (key != null) {
            String text = new String(key, StandardCharsets.UTF_8);
            if (!text.equals(orderId)) {
                throw new InvalidRecordException("record key '" + text + "' differs from orderId '" + orderId + "'");
            }
        }
    }
}
