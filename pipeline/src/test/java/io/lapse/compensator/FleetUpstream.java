package io.lapse.compensator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The upstream API on 127.0.0.1: answers {@code GET /orders/{orderId}/status} with the order's newest status it
 * pushed, so that a pull of a silent order brings nothing newer; 404 for an order it never pushed. A test can hold an
 * order's pulls and answer them later with a status of its choosing, as a slow upstream that hears from the charger.
 */
final class FleetUpstream implements AutoCloseable {

    private static final String PREFIX = "/orders/";

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final Map<String, StatusPush> newest = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<StatusPush>> held = new ConcurrentHashMap<>();
    private final Set<String> waiting = ConcurrentHashMap.newKeySet();

    private FleetUpstream(HttpServer server) {
        this.server = server;
        server.createContext(PREFIX, this::handle);
        server.setExecutor(threads);
        server.start();
    }

    static FleetUpstream start() {
        try {
            return new FleetUpstream(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the upstream", e);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void pushed(StatusPush status) {
        newest.put(status.orderId(), status);
    }

    /** The order's newest push, what a pull of it answers; null before its first. */
    StatusPush newest(String orderId) {
        return newest.get(orderId);
    }

    /** The order's pulls from now on wait, unanswered, until {@link #answerHeld}. */
    void hold(String orderId) {
        held.put(orderId, new CompletableFuture<>());
    }

    /** Whether a pull of the order is waiting to be answered. */
    boolean isHolding(String orderId) {
        return waiting.contains(orderId);
    }

    /** Answers the order's held pulls, and any after them, with this status. */
    void answerHeld(StatusPush status) {
        newest.put(status.orderId(), status);
        held.remove(status.orderId()).complete(status);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String orderId = path.substring(PREFIX.length(), path.length() - "/status".length());
        CompletableFuture<StatusPush> hold = held.get(orderId);
        if (hold != null) {
            waiting.add(orderId);
            hold.join();
            waiting.remove(orderId);
        }
        StatusPush status = newest.get(orderId);
        byte[] body = status == null ? "{}".getBytes(StandardCharsets.UTF_8) : JsonCodec.STATUS_PUSH.encode(status);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status == null ? 404 : 200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        held.values().forEach(hold -> hold.complete(null)); // a pull still held must not keep its thread
        server.stop(0);
        threads.shutdownNow();
    }
}
