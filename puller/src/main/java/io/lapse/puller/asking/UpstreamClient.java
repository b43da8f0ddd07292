package io.lapse.puller.asking;

import io.lapse.config.ConfigKeys;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * One request for an order's status, {@code GET {base-url}/orders/{orderId}/status}, and what its answer means: 200
 * with a valid status is OK; 404 is NOT_FOUND once the {@link BasePathCheck} confirms it was upstream's answer; a 4xx
 * but 401, 403, 404, 407, 408 and 429, and a 200 whose body is not the order's status or is too large, is REFUSED:
 * upstream will not answer for this order, and asking again would not change it; 401, 403 and 407 are thrown as
 * {@link CredentialsRefused}; anything else is thrown as {@link UpstreamUnavailable}.
 */
final class UpstreamClient {

    private final UpstreamHttp http;
    private final BasePathCheck basePath;
    private final int maxBodyBytes;
    private final Timer requests;

    UpstreamClient(UpstreamHttp http, BasePathCheck basePath, int maxBodyBytes, Timer requests) {
        this.http = http;
        this.basePath = basePath;
        this.maxBodyBytes = maxBodyBytes;
        this.requests = requests;
    }

    /** @return OK, NOT_FOUND or REFUSED */
    PullOutcome fetch(String orderId, Duration timeout) throws UpstreamUnavailable, InterruptedException {
        UpstreamHttp.Answer response;
        Timer.Sample sample = Timer.start();
        try {
            response = http.get(http.statusUri(orderId), timeout);
        } finally {
            sample.stop(requests);
        }
        long answeredAt = System.nanoTime();
        int status = response.statusCode();
        if (status == 200) {
            basePath.served();
            return read(orderId, response);
        }
        if (status == 404) {
            return notFound(answeredAt);
        }
        if (CredentialsRefused.refusesCredentials(status)) {
            throw new CredentialsRefused(status);
        }
        if (refusesTheOrder(status)) {
            return PullOutcome.refused(
                    "answered " + status,
                    "upstream refused the pull: answered " + status + " (about this order, not upstream's health:"
                            + " not asked again)");
        }
        throw new UpstreamUnavailable("upstream answered " + status);
    }

    /**
     * A 4xx answers this one request: asking again cannot change it. 404 has its own rule; 408 (request timeout) and
     * 429 (too many requests) are upstream asking for another try later; 401, 403 and 407 refuse the credentials.
     */
    static boolean refusesTheOrder(int status) {
        return status >= 400
                && status < 500
                && status != 404
                && status != 408
                && status != 429
                && !CredentialsRefused.refusesCredentials(status);
    }

    private PullOutcome notFound(long answeredAt) throws UpstreamUnavailable {
        BasePathCheck.Verdict verdict = basePath.probeBegunAfter(answeredAt);
        if (verdict != BasePathCheck.Verdict.SERVED) {
            throw new UpstreamUnavailable("upstream answered 404, " + basePath.distrust(verdict));
        }
        return PullOutcome.notFound();
    }

    private PullOutcome read(String orderId, UpstreamHttp.Answer answer) {
        if (answer.tooLarge()) {
            return PullOutcome.refused(
                    "answered 200 with a body too large",
                    "upstream answered 200 with a body over " + maxBodyBytes + " bytes ("
                            + ConfigKeys.UPSTREAM_MAX_BODY_BYTES.name() + ")");
        }
        try {
            StatusPush status = JsonCodec.STATUS_PUSH.decode(answer.body());
            if (!status.orderId().equals(orderId)) {
                return PullOutcome.refused(
                        "answered 200 with another order's status",
                        "upstream answered 200 with the status of order '" + status.orderId() + "' instead of '"
                                + orderId + "'");
            }
            return PullOutcome.ok(status);
        } catch (InvalidRecordException e) {
            return PullOutcome.refused(
                    "answered 200 with an invalid status",
                    "upstream answered 200 with an invalid status: " + e.getMessage());
        }
    }
}
