package io.lapse.puller;

import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;

/**
 * What upstream said about one order, before it is tied to the expiry that asked.
 *
 * @param status     the upstream body when the outcome is OK, else null
 * @param error      why the pull failed when the outcome is FAILED, else null
 * @param unanswered FAILED because upstream gave no usable answer (an error status, a timeout), which a later try
 *                   may get; false for an answer that settles the order (a body that is no status, a refusal)
 */
record PullOutcome(PullResult.Outcome outcome, StatusPush status, String error, boolean unanswered) {

    static PullOutcome ok(StatusPush status) {
        return new PullOutcome(PullResult.Outcome.OK, status, null, false);
    }

    static PullOutcome notFound() {
        return new PullOutcome(PullResult.Outcome.NOT_FOUND, null, null, false);
    }

    static PullOutcome failed(String error) {
        return new PullOutcome(PullResult.Outcome.FAILED, null, error, false);
    }

    /** No pull was needed after all: the order had news while its pull waited. */
    static PullOutcome skipped() {
        return new PullOutcome(PullResult.Outcome.SKIPPED, null, null, false);
    }

    static PullOutcome unanswered(String error) {
        return new PullOutcome(PullResult.Outcome.FAILED, null, error, true);
    }

    PullResult toResult(TimerExpired expiry, long pulledAt) {
        return switch (outcome) {
            case OK -> PullResult.ok(expiry, status, pulledAt);
            case NOT_FOUND -> PullResult.notFound(expiry, pulledAt);
            case SKIPPED -> PullResult.skipped(expiry, pulledAt);
            default -> PullResult.failed(expiry, error, pulledAt);
        };
    }
}
