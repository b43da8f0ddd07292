package io.lapse.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.lapse.config.ManagementSettings;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the status page ({@code /} and {@code /status.json}), {@code /metrics} (Prometheus), {@code /health/live} and
 * {@code /health/ready} on the management port. Health answers 200 when UP and 503 when DOWN, with a JSON body naming
 * each failing check and its problem.
 */
public final class ManagementServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ManagementServer.class);
    /**
     * Requests are short; a few threads keep one slow scrape from holding up the probes. Connections that are open
     * but idle hold no thread: the server's selector only hands a connection to a thread once a request arrives.
     */
    private static final int THREADS = 4;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] STATUS_PAGE = statusPage();

    private final HttpServer server;
    private final ExecutorService executor;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile StatusSource status;

    private ManagementServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    public static ManagementServer start(ManagementSettings settings, PrometheusMeterRegistry registry, Health health) {
        HttpServer server;
        InetSocketAddress address = new InetSocketAddress(settings.address(), settings.port());
        try {
            if (address.isUnresolved()) {
                throw new IOException("cannot resolve " + settings.address());
            }
            server = HttpServer.create(address, 64);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot serve management endpoints on " + settings.address() + ":" + settings.port()
                            + " (management.address, management.port)",
                    e);
        }
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread thread = new Thread(r, "lapse-management-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        ManagementServer management = new ManagementServer(server, executor);
        server.createContext(
                "/", management.exactly("/", ex -> respond(ex, 200, "text/html; charset=utf-8", STATUS_PAGE)));
        server.createContext("/status.json", ex -> management.serveStatus(ex, health));
        server.createContext(
                "/metrics",
                ex -> respond(
                        ex,
                        200,
                        "text/plain; version=0.0.4; charset=utf-8",
                        registry.scrape().getBytes(StandardCharsets.UTF_8)));
        server.createContext("/health/live", ex -> respondHealth(ex, health.liveness()));
        server.createContext("/health/ready", ex -> respondHealth(ex, health.readiness()));
        server.setExecutor(executor);
        server.start();
        log.info(
                "management endpoints on http://{}:{}/ (status page, status.json, metrics, health/live, health/ready)",
                settings.address(),
                management.port());
        return management;
    }

    /** From now on {@code /status.json} reports what this source says; before, it answers 503. */
    public void showStatus(StatusSource source) {
        this.status = source;
    }

    private HttpHandler exactly(String path, HttpHandler handler) {
        return ex -> {
            if (ex.getRequestURI().getPath().equals(path)) {
                handler.handle(ex);
            } else {
                respond(ex, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
            }
        };
    }

    private void serveStatus(HttpExchange exchange, Health health) throws IOException {
        StatusSource source = status;
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
        respond(exchange, code, "application/json", json(body));
    }

    private static void respondHealth(HttpExchange exchange, Health.Report report) throws IOException {
        respond(exchange, report.isUp() ? 200 : 503, "application/json", json(report));
    }

    private static byte[] json(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    private static void respond(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
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
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
