package io.lapse.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What a pull of a silent order's status found out.
 *
 * @param status the upstream body when the outcome is OK, else null
 * @param error  why the pull failed when the outcome is FAILED, else null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"orderId", "outcome", "status", "pulledAt", "expiry", "error"})
public record PullResult(
        String orderId, Outcome outcome, StatusPush status, long pulledAt, ExpiryRef expiry, String error)
        implements Validated {

    public enum Outcome {
        OK,
        NOT_FOUND,
        FAILED,
        SKIPPED
    }

    /** The expiry that asked for the pull. */
    public record ExpiryRef(long deadline, int attempt) {
        public static ExpiryRef of(TimerExpired expiry) {
            return new ExpiryRef(expiry.deadline(), expiry.attempt());
        }
    }

    public static PullResult ok(TimerExpired expiry, StatusPush status, long pulledAt) {
        return new PullResult(expiry.orderId(), Outcome.OK, status, pulledAt, ExpiryRef.of(expiry), null);
    }

    public static PullResult notFound(TimerExpired expiry, long pulledAt) {
        return new PullResult(expiry.orderId(), Outcome.NOT_FOUND, null, pulledAt, ExpiryRef.of(expiry), null);
    }

    public static PullResult failed(TimerExpired expiry, String error, long pulledAt) {
        return new PullResult(expiry.orderId(), Outcome.FAILED, null, pulledAt, ExpiryRef.of(expiry), error);
    }

    public static PullResult skipped(TimerExpired expiry, long pulledAt) {
        return new PullResult(expiry.orderId(), Outcome.SKIPPED, null, pulledAt, ExpiryRef.of(expiry), null);
    }

    @Override
    public void validate() {
        StatusHeader.requireOrderId(orderId);
        if (outcome == null) {
            throw new InvalidRecordException("outcome is missing");
        }
        if (pulledAt <= 0) {
            throw new InvalidRecordException("pulledAt must be epoch milliseconds");
        }
        if (outcome == Outcome.OK) {
            if (status == null) {
                throw new InvalidRecordException("an OK pull result carries no status");
            }
            status.validate();
            if (!status.orderId().equals(orderId)) {
                throw new InvalidRecordException("status.orderId '" + status.orderId() + "' differs from orderId");
            }
        }
    }
}
