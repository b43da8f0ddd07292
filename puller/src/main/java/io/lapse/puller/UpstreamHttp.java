package io.lapse.puller;

import io.lapse.config.Durations;
import io.lapse.config.UpstreamSettings;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * One GET to upstream, bounded: the request's timeout ends it when the headers do not arrive within {@code
 * upstream.timeout}, and {@link CappedBody} when the body is not read by then either, so a stalled body cannot hang a
 * pull; the body is read up to {@code upstream.max-body-bytes}. Every request carries the configured headers. No
 * answer at all is thrown as {@link UpstreamUnavailable}.
 *
 * <p>The GET is sent with the blocking {@code send} on the pull thread, never {@code sendAsync}: the JDK's client
 * hands every {@code sendAsync} answer to CompletableFuture's default pool, which on a machine of one or two cores is
 * a new thread per task; the expiry storm of 2026-11-26 started a thread for every pull that way. The client's own
 * tasks run on {@link UpstreamIoThread}.
 */
final class UpstreamHttp {

    private final HttpClient http;
    private final URI baseUrl;
    private final Duration timeout;
    private final Map<String, String> headers;
    private final int maxBodyBytes;

    UpstreamHttp(UpstreamSettings settings) {
        // HTTP/1.1 spares plain-http upstreams the h2c upgrade dance, which some servers and proxies mishandle
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.timeout())
                .executor(UpstreamIoThread.create())
                .sslContext(UpstreamAccessSetup.tls(settings.access()))
                .build();
        this.baseUrl = settings.baseUrl();
        this.timeout = settings.timeout();
        this.headers = UpstreamAccessSetup.headers(settings.access());
        this.maxBodyBytes = settings.maxBodyBytes();
    }

    URI statusUri(String orderId) {
        // URLEncoder writes form encoding; in a path a space is %20, and an encoded '/' keeps the id one segment
        String segment = URLEncoder.encode(orderId, StandardCharsets.UTF_8).replace("+", "%20");
        return URI.create(baseUrl + "/orders/" + segment + "/status");
    }

    HttpResponse<CappedBody.Body> get(URI uri) throws UpstreamUnavailable, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json");
        headers.forEach(request::header);
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpResponse<CappedBody.Body> response;
        try {
            // interrupted (the puller closing), send cancels the exchange before it throws
            response = http.send(request.GET().build(), CappedBody.handler(maxBodyBytes, deadline));
        } catch (HttpTimeoutException e) {
            throw timedOut();
        } catch (IOException e) {
            throw new UpstreamUnavailable("upstream unreachable: " + e);
        }
        if (response.body().timedOut()) {
            throw timedOut();
        }
        return response;
    }

    private UpstreamUnavailable timedOut() {
        return new UpstreamUnavailable("timeout: no answer within " + Durations.format(timeout));
    }
}
