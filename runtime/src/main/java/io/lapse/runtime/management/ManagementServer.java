package io.lapse.runtime.management;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.config.ManagementSettings;
import io.lapse.http.HardenedServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the status page ({@code /} and {@code /status.json}), {@code /metrics} (Prometheus), {@code /health/live} and
 * {@code /health/ready} on the management port. Health answers 200 when UP and 503 when DOWN, with a JSON body naming
 * each failing check and its problem.
 *
 * <p>An orchestrator restarts a process whose health does not answer, so no client may stall the port: it is a {@link
 * HardenedServer}, on which a few slow or stuck clients can neither hang nor starve the probes.
 */
public final class ManagementServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ManagementServer.class);
    /** Requests are short: a few threads keep one slow scrape from holding up the probes. */
    private static final int THREADS = 6;
    /** Every page answers in milliseconds; Prometheus gives up on a scrape after 10 s by default. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] STATUS_PAGE = statusPage();

    private final HardenedServer server;
    /** Null until the wiring provides it. */
    private final AtomicReference<StatusSource> status;

    private ManagementServer(HardenedServer server, AtomicReference<StatusSource> status) {
        this.server = server;
        this.status = status;
    }

    /**
     * @throws java.io.UncheckedIOException naming management.address and management.port when it cannot listen there
     */
    public static ManagementServer start(ManagementSettings settings, PrometheusMeterRegistry registry, Health health) {
        AtomicReference<StatusSource> status = new AtomicReference<>();
        ManagementServer management = new ManagementServer(
                HardenedServer.start(
                        new HardenedServer.Settings(
                                "management",
                                settings.address(),
                                settings.port(),
                                "management.address, management.port",
                                THREADS,
                                REQUEST_TIMEOUT,
                                null),
                        routes(registry, health, status)),
                status);
        log.info(
                "management endpoints on http://{}:{}/ (status page, status.json, metrics, health/live, health/ready)",
                settings.address(),
                management.port());
        return management;
    }

    /** From now on {@code /status.json} reports what this source says; before, it answers 503. */
    public void showStatus(StatusSource source) {
        status.set(source);
    }

    /** A page the management port serves: its status code, content type and body. */
    private record Page(int status, String contentType, byte[] body) {
        static Page json(int status, Object value) {
            return new Page(status, "application/json", ManagementServer.json(value));
        }
    }

    private static Handler routes(
            PrometheusMeterRegistry registry, Health health, AtomicReference<StatusSource> status) {
        Map<String, Supplier<Page>> pages = Map.of(
                "/",
                () -> new Page(200, "text/html; charset=utf-8", STATUS_PAGE),
                "/status.json",
                () -> statusJson(health, status.get()),
                "/metrics",
                () -> new Page(
                        200,
                        "text/plain; version=0.0.4; charset=utf-8",
                        registry.scrape().getBytes(StandardCharsets.UTF_8)),
                "/health/live",
                () -> healthPage(health.liveness()),
                "/health/ready",
                () -> healthPage(health.readiness()));
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Supplier<Page> page = pages.get(Request.getPathInContext(request));
                Page answer = page == null
                        ? new Page(404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8))
                        : page.get();
                response.setStatus(answer.status());
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
                response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
                response.write(true, ByteBuffer.wrap(answer.body()), callback);
                return true;
            }
        };
    }

    private static Page statusJson(Health health, StatusSource source) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ready", health.readiness());
        body.put("live", health.liveness());
        int code = source == null ? 503 : 200;
        try {
            if (source != null) {
                body.put("process", source.report());
            }
        } catch (RuntimeException e) {
            log.warn("the status page could not read the process's status: {}", e.toString());
            body.put("error", e.toString());
            code = 500;
        }
        return Page.json(code, body);
    }

    private static Page healthPage(Health.Report report) {
        return Page.json(report.isUp() ? 200 : 503, report);
    }

    private static byte[] json(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    private static byte[] statusPage() {
        try (InputStream page = ManagementServer.class.getResourceAsStream("status.html")) {
            if (page == null) {
                throw new IllegalStateException("status.html is missing from the classpath next to ManagementServer");
            }
            return page.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }
}
