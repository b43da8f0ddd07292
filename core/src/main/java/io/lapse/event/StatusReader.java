package io.lapse.event;

import io.lapse.config.TimerSettings;
import java.util.function.Consumer;

/**
 * Reads a status push or a pull result as an update of the order's timer, by the contract's rules: the key must match
 * the orderId; the event time is the status's ts, or the record's timestamp when ts is missing or more than
 * timer.max-event-age older than that timestamp (ts 0, or seconds for milliseconds, which would arm a deadline decades
 * ago); and an event time further ahead of the record's timestamp than timer.max-clock-skew is that timestamp. Ingest
 * and the compensator both read with it, and the rules look at the record alone, never at when it is read (the time it
 * is read stands in for the record's timestamp only where a record has none): ingest reads a record as it arrives,
 * the compensator maybe minutes later, and both must come to the same event time for every status, or the
 * compensator's mirror would disagree with what Redis armed.
 */
public final class StatusReader {

    /** A rule that replaced an event time the status carried. */
    public enum Correction {
        /** Further ahead of its record's timestamp than the clock skew allows. */
        FUTURE,
        /** Older than the record's own timestamp by more than timer.max-event-age. */
        PAST
    }

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
    private final Consumer<Correction> corrections;

    public StatusReader(TimerSettings timer) {
        this(timer, correction -> {});
    }

    /** @param corrections told of every event time a rule replaced, e.g. to count them */
    public StatusReader(TimerSettings timer, Consumer<Correction> corrections) {
        this.timer = timer;
        this.corrections = corrections;
    }

    /** @throws InvalidRecordException when the record breaks the contract */
    public OrderUpdate push(byte[] key, byte[] value, long recordTime, long readTime) {
        return push(key, value, recordTime, readTime, null);
    }

    /**
     * @param capture takes the text of the top-level field it names in the same scan of the push; null for none
     * @throws InvalidRecordException when the record breaks the contract
     */
    public OrderUpdate push(byte[] key, byte[] value, long recordTime, long readTime, FieldCapture capture) {
        StatusHeader push = StatusHeader.read(value, capture);
        RecordKey.requireMatches(key, push.orderId());
        return fromStatus(push, recordTime, readTime);
    }

    /**
     * @return the update, or null for a pull that changes nothing (FAILED, SKIPPED)
     * @throws InvalidRecordException when the record breaks the contract
     */
    public OrderUpdate pull(byte[] key, byte[] value, long recordTime, long readTime) {
        PullResult pull = JsonCodec.PULL_RESULT.decode(value);
        RecordKey.requireMatches(key, pull.orderId());
        return switch (pull.outcome()) {
            case OK -> fromStatus(pull.status().header(), recordTime, readTime);
            case NOT_FOUND ->
                OrderUpdate.gone(pull.orderId(), notAhead(pull.pulledAt(), recorded(recordTime, readTime)));
            case FAILED, SKIPPED -> null;
        };
    }

    private OrderUpdate fromStatus(StatusHeader status, long recordTime, long readTime) {
        long eventTime = eventTime(status.ts(), recorded(recordTime, readTime));
        return timer.isTerminal(status.status())
                ? OrderUpdate.terminal(status.orderId(), eventTime)
                : OrderUpdate.active(status.orderId(), eventTime);
    }

    /** The record's timestamp, or the time it was read when it has none (a record of the oldest message format). */
    private static long recorded(long recordTime, long readTime) {
        return recordTime >= 0 ? recordTime : readTime;
    }

    /** @param recorded the record's timestamp, or the time it was read when it has none */
    private long eventTime(Long ts, long recorded) {
        if (ts == null) {
            return recorded;
        }
        if (ts < recorded - timer.maxEventAge().toMillis()) {
            corrections.accept(Correction.PAST);
            return recorded;
        }
        return notAhead(ts, recorded);
    }

    private long notAhead(long eventTime, long recorded) {
        if (eventTime > recorded + timer.maxClockSkew().toMillis()) {
            corrections.accept(Correction.FUTURE);
            return recorded;
        }
        return eventTime;
    }
}
