package io.lapse.puller.asking;

import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import java.util.Objects;

/**
 * What asking upstream about one order came to, before it is tied to the expiry that asked.
 *
 * @param status  upstream's body when the kind is OK, else null
 * @param error   why, for every kind but OK and NOT_FOUND
 * @param refusal what upstream refused with, for REFUSED (e.g. {@code answered 422}): two refusals alike share it
 */
public record PullOutcome(Kind kind, StatusPush status, String error, String refusal) {

    public enum Kind {
        /** Upstream answered the order's status. */
        OK,
        /** Upstream does not know the order. */
        NOT_FOUND,
        /** Upstream refused to answer for the order; {@link Refusals} judges next whether it refuses it alone. */
        REFUSED,
        /** Upstream refuses this order alone: its pull is FAILED. */
        FAILED,
        /** No answer yet (upstream out, a request unanswered, a refusal of most orders alike): the pull waits. */
        UNANSWERED
    }

    public PullOutcome {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.OK) != (status != null)) {
            throw new IllegalArgumentException("a status comes with OK and nothing else, got " + kind);
        }
        if ((kind == Kind.REFUSED) != (refusal != null)) {
            throw new IllegalArgumentException("a refusal comes with REFUSED and nothing else, got " + kind);
        }
    }

    static PullOutcome ok(StatusPush status) {
        return new PullOutcome(Kind.OK, status, null, null);
    }

    static PullOutcome notFound() {
        return new PullOutcome(Kind.NOT_FOUND, null, null, null);
    }

    /**
     * @param refusal what upstream refused with, alike for every order refused the same way
     * @param error   why, for the FAILED result
     */
    static PullOutcome refused(String refusal, String error) {
        return new PullOutcome(Kind.REFUSED, null, error, refusal);
    }

    public static PullOutcome unanswered(String error) {
        return new PullOutcome(Kind.UNANSWERED, null, error, null);
    }

    /** The same refusal, judged to be about this order alone. */
    PullOutcome aboutTheOrder() {
        return new PullOutcome(Kind.FAILED, null, error, null);
    }

    /** Whether it answers the expiry (OK, NOT_FOUND, FAILED), rather than leaving it to wait or to be judged. */
    public boolean answers() {
        return kind == Kind.OK || kind == Kind.NOT_FOUND || kind == Kind.FAILED;
    }

    /** @throws IllegalStateException when it does not {@link #answers answer} the expiry */
    public PullResult toResult(TimerExpired expiry, long pulledAt) {
        return switch (kind) {
            case OK -> PullResult.ok(expiry, status, pulledAt);
            case NOT_FOUND -> PullResult.notFound(expiry, pulledAt);
            case FAILED -> PullResult.failed(expiry, error, pulledAt);
            default -> throw new IllegalStateException(kind + " answers no expiry");
        };
    }
}
