package io.lapse.puller;

import io.lapse.config.Durations;
import io.lapse.config.UpstreamSettings;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.micrometer.core.instrument.Timer;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request for an order's status, {@code GET {base-url}/orders/{orderId}/status}, and what its answer means:
 * 200 with a valid status is OK, 404 is NOT_FOUND, a 200 with an unusable body is FAILED (asking again would not
 * change it); anything else is thrown as {@link UpstreamUnavailable}, to be retried.
 */
final class UpstreamClient {

    private final HttpClient http;
    private final URI baseUrl;
    private final Duration timeout;
    private final Timer requests;

    UpstreamClient(UpstreamSettings settings, Timer requests) {
        // HTTP/1.1 spares plain-http upstreams the h2c upgrade dance, which some servers and proxies mishandle
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.timeout()).build();
        this.baseUrl = settings.baseUrl();
        this.timeout = settings.timeout();
        this.requests = requests;
    }

    PullOutcome fetch(String orderId) throws UpstreamUnavailable, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(statusUri(orderId)).timeout(timeout)
                .header("Accept", "application/json").GET().build();
        HttpResponse<byte[]> response;
        Timer.Sample sample = Timer.start();
        try {
            response = send(request);
        } finally {
            sample.stop(requests);
        }
        return switch (response.statusCode()) {
            case 200 -> read(orderId, response.body());
            case 404 -> PullOutcome.notFound();
            default -> throw new UpstreamUnavailable("upstream answered " + response.statusCode());
        };
    }

    URI statusUri(String orderId) {
        // URLEncoder writes form encoding; in a path a space is %20, and an encoded '/' keeps the id one segment
        String segment = URLEncoder.encode(orderId, StandardCharsets.UTF_8).replace("+", "%20");
        return URI.create(baseUrl + "/orders/" + segment + "/status");
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws UpstreamUnavailable, InterruptedException {
        // the request timeout covers only the wait for the headers; the overall wait also bounds a stalled body
        CompletableFuture<HttpResponse<byte[]>> answer = http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw timedOut();
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof HttpTimeoutException) {
                throw timedOut();
            }
            if (e.getCause() instanceof IOException) {
                throw new UpstreamUnavailable("upstream unreachable: " + e.getCause());
            }
            throw new IllegalStateException("request to " + request.uri() + " failed", e.getCause());
        }
    }

    private UpstreamUnavailable timedOut() {
        return new UpstreamUnavailable("timeout: no answer within " + Durations.format(timeout));
    }

    private static PullOutcome read(String orderId, byte[] body) {
        try {
            StatusPush status = JsonCodec.STATUS_PUSH.decode(body);
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
