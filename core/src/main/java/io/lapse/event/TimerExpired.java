package io.lapse.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.charset.StandardCharsets;

/**
 * An order stayed silent past its deadline. {@code (orderId, deadline, attempt)} identifies the expiry:
 * a duplicate delivered under faults carries the same triple.
 *
 * @param finalAttempt true on the last attempt before the timer gives up on the order ("final" on the wire, left
 *                     out when false); never null
 */
@JsonPropertyOrder({"orderId", "deadline", "lastSeen", "attempt", "firedAt", "source", "final"})
public record TimerExpired(
        String orderId,
        long deadline,
        long lastSeen,
        int attempt,
        long firedAt,
        Source source,

        @JsonProperty("final") @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        Boolean finalAttempt)
        implements Validated {

    public TimerExpired {
        finalAttempt = Boolean.TRUE.equals(finalAttempt);
    }

    /** Which mechanism noticed the silence. */
    public enum Source {
        @JsonProperty("timer")
        TIMER,
        @JsonProperty("keyspace")
        KEYSPACE,
        @JsonProperty("compensator")
        COMPENSATOR,
        /** On-call fired it by hand ({@code lapse fire}). */
        @JsonProperty("manual")
        MANUAL
    }

    /**
     * The key of its record on the expired topic, the orderId in UTF-8, as every publisher of expiries writes it (the
     * timer, the compensator's late expiries), so that an order's expiries share a partition.
     */
    public byte[] recordKey() {
        return orderId.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void validate() {
        StatusHeader.requireOrderId(orderId);
        if (attempt < 1) {
            throw new InvalidRecordException("attempt must be at least 1, got " + attempt);
        }
        if (deadline <= 0 || lastSeen < 0 || firedAt <= 0) {
            throw new InvalidRecordException("deadline, lastSeen and firedAt must be epoch milliseconds");
        }
        if (source == null) {
            throw new InvalidRecordException("source is missing");
        }
    }
}
