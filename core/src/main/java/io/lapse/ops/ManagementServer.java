package io.lapse.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/** Serves /metrics (Prometheus), /health/live and /health/ready on the management port. */
public final class ManagementServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ManagementServer.class);

    private final HttpServer server;
    private final ExecutorService executor;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ManagementServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** @param port 0 for any free port */
    public static ManagementServer start(int port, PrometheusMeterRegistry registry, Health health) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(port), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve management endpoints on port " + port, e);
        }
        server.createContext("/metrics", ex -> respond(ex, 200, "text/plain; version=0.0.4; charset=utf-8",
                registry.scrape()));
        server.createContext("/health/live", ex -> respond(ex, 200, "application/json", "{\"status\":\"UP\"}"));
        server.createContext("/health/ready", ex -> respond(ex, health.isReady() ? 200 : 503, "application/json",
                health.toJson()));
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "lapse-management"));
        server.setExecutor(executor);
        server.start();
        log.info("management endpoints on http://localhost:{}/ (metrics, health/live, health/ready)",
                server.getAddress().getPort());
        return new ManagementServer(server, executor);
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        try (exchange) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
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
