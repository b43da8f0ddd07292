package io.lapse.puller;

import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
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
import java.util.concurrent.TimeoutException;

/**
 * One GET to upstream, bounded: the TimeLimiter ends it after {@code upstream.timeout} (headers and body, so a stalled
 * body cannot hang a pull), and the body is read up to {@code upstream.max-body-bytes}. Every request carries the
 * configured headers. No answer at all is thrown as {@link UpstreamUnavailable}.
 */
final class UpstreamHttp {

    private final HttpClient http;
    private final URI baseUrl;
    private final Duration timeout;
    private final Map<String, String> headers;
    private final HttpResponse.BodyHandler<CappedBody.Body> bodies;
    private final TimeLimiter limiter;

    UpstreamHttp(UpstreamSettings settings) {
        // HTTP/1.1 spares plain-http upstreams the h2c upgrade dance, which some servers and proxies mishandle
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.timeout())
                .sslContext(UpstreamAccessSetup.tls(settings.access()))
                .build();
        this.baseUrl = settings.baseUrl();
        this.timeout = settings.timeout();
        this.headers = UpstreamAccessSetup.headers(settings.access());
        this.bodies = CappedBody.handler(settings.maxBodyBytes());
        this.limiter = TimeLimiter.of(
                "upstream",
                TimeLimiterConfig.custom()
                        .timeoutDuration(settings.timeout())
                        .cancelRunningFuture(true)
                        .build());
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
        try {
            return limiter.executeFutureSupplier(
                    () -> http.sendAsync(request.GET().build(), bodies));
        } catch (TimeoutException | HttpTimeoutException e) {
            throw new UpstreamUnavailable("timeout: no answer within " + Durations.format(timeout));
        } catch (IOException e) {
            throw new UpstreamUnavailable("upstream unreachable: " + e);
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("request to " + uri + " failed", e);
        }
    }
}
