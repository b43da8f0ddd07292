package io.lapse.puller;

import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;

/**
 * What upstream said about one order, before it is tied to the expiry that asked.
 *
 * @param status the upstream body when the outcome is OK, else null
 * @param error  why the pull failed when the outcome is FAILED, else null
 */
record PullOutcome(PullResult.Outcome outcome, StatusPush status, String error) {

    static PullOutcome ok(StatusPush status) {
        return new PullOutcome(PullResult.Outcome.OK, status, null);
    }

    static PullOutcome notFound() {
        return new PullOutcome(PullResult.Outcome.NOT_FOUND, null, null);
    }

    static PullOutcome failed(String error) {
        return new PullOutcome(PullResult.Outcome.FAILED, null, error);
    }

    PullResult toResult(TimerExpired expiry, long pulledAt) {
        return switch (outcome) {
            case OK -> PullResult.ok(expiry, status, pulledAt);
            case NOT_FOUND -> PullResult.notFound(expiry, pulledAt);
            default -> PullResult.failed(expiry, error, pulledAt);
        };
    }
}
