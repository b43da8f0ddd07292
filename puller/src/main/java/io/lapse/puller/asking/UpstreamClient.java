package io.lapse.puller;

import io.lapse.config.ConfigKeys;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * One request for an order's status, {@code GET {base-url}/orders/{orderId}/status}, and what its answer means:
 * 200 with a valid status is OK; 404 is NOT_FOUND once the {@link BasePathCheck} confirms it was upstream's answer;
 * a 200 with an unusable or oversized body is FAILED (asking again would not change it); anything else is thrown as
 * {@link UpstreamUnavailable}, to be retried.
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

    PullOutcome fetch(String orderId) throws UpstreamUnavailable, InterruptedException {
        UpstreamHttp.Answer response;
        Timer.Sample sample = Timer.start();
        try {
            response = http.get(http.statusUri(orderId));
        } finally {
            sample.stop(requests);
        }
        long answeredAt = System.nanoTime();
        return switch (response.statusCode()) {
            case 200 -> {
                basePath.served();
                yield read(orderId, response);
            }
            case 404 -> notFound(answeredAt);
            default -> {
                if (refusesTheOrder(response.statusCode())) {
                    yield PullOutcome.failed("upstream refused the pull: answered " + response.statusCode()
                            + " (a 4xx is about the request, not upstream's health: not retried)");
                }
                throw new UpstreamUnavailable("upstream answered " + response.statusCode());
            }
        };
    }

    /** Whether upstream answered some pull 200 within the last {@code window}. */
    boolean answeredWithin(Duration window) {
        return basePath.servedWithin(window.toMillis());
    }

    /**
     * A 4xx answers this one request: retrying cannot change it, and it says nothing of upstream's health. 404 has
     * its own rule; 408 (request timeout) and 429 (too many requests) are upstream asking for another try later.
     */
    static boolean refusesTheOrder(int status) {
        return status >= 400 && status < 500 && status != 404 && status != 408 && status != 429;
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
            return PullOutcome.failed("upstream answered 200 with a body over " + maxBodyBytes + " bytes ("
                    + ConfigKeys.UPSTREAM_MAX_BODY_BYTES.name() + ")");
        }
        try {
            StatusPush status = JsonCodec.STATUS_PUSH.decode(answer.body());
            if (!status.orderId().equals(orderId)) {
                return PullOutcome.failed("upstream answered 200 with the status of order '" + status.orderId()
                        + "' instead of '" + orderId + "'");
            }
            return PullOutcome.ok(status);
        } catch (InvalidRecordException e) {
            return PullOutcome.failed("upstream answered 200 with an invalid status: " + e.getMessage());
        }
    }
}
