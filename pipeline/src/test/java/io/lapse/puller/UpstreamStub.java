package io.lapse.puller;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The upstream API, played on 127.0.0.1: answers {@code GET /orders/{orderId}/status} as each test scripts it, and
 * counts what it was asked. An order nobody scripted is CHARGING. {@code GET /} answers 200, other paths 404.
 */
public final class UpstreamStub implements AutoCloseable {

    /** One answer; the stub waits {@code delay} before giving it, as a slow upstream would. */
    public record Answer(int status, String body, Duration delay) {
        public static Answer of(int status, String body) {
            return new Answer(status, body, Duration.ZERO);
        }

        public static Answer status(String orderId, String status) {
            return of(
                    200,
                    "{\"orderId\":\"" + orderId + "\",\"status\":\"" + status + "\",\"soc\":81,\"power\":4.4,"
                            + "\"ts\":" + System.currentTimeMillis() + "}");
        }

        public Answer after(Duration wait) {
            return new Answer(status, body, wait);
        }
    }

    private static final String PREFIX = "/orders/";
    private static final String SUFFIX = "/status";

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    /** orderId → its answers in turn; the last one is repeated */
    private final Map<String, List<Answer>> scripts = new ConcurrentHashMap<>();

    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final List<String> rawPaths = new CopyOnWriteArrayList<>();
    private final AtomicInteger answering = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    private UpstreamStub(HttpServer server) {
        this.server = server;
        server.createContext(PREFIX, this::handle);
        // the API root answers, so that the puller's probe finds upstream served here
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/") ? 200 : 404, -1);
            }
        });
        server.setExecutor(threads);
        server.start();
    }

    public static UpstreamStub start() {
        try {
            return new UpstreamStub(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the upstream stub", e);
        }
    }

    /** The stub over https, presenting the certificate of this TLS context. */
    public static UpstreamStub startTls(SSLContext tls) {
        try {
            HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls));
            return new UpstreamStub(server);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the upstream stub", e);
        }
    }

    public String baseUrl() {
        return (server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:"
                + server.getAddress().getPort();
    }

    public void answer(String orderId, Answer... answers) {
        scripts.put(orderId, List.of(answers));
    }

    public int requests(String orderId) {
        AtomicInteger count = requests.get(orderId);
        return count == null ? 0 : count.get();
    }

    public List<String> rawPaths() {
        return List.copyOf(rawPaths);
    }

    /** The most requests the stub was answering at the same time. */
    int mostAtOnce() {
        return mostAtOnce.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        int now = answering.incrementAndGet();
        mostAtOnce.accumulateAndGet(now, Math::max);
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            rawPaths.add(path);
            if (!path.endsWith(SUFFIX)) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            String orderId = URLDecoder.decode(
                    path.substring(PREFIX.length(), path.length() - SUFFIX.length()), StandardCharsets.UTF_8);
            int turn =
                    requests.computeIfAbsent(orderId, id -> new AtomicInteger()).getAndIncrement();
            List<Answer> script = scripts.getOrDefault(orderId, List.of(Answer.status(orderId, "CHARGING")));
            reply(exchange, script.get(Math.min(turn, script.size() - 1)));
        } finally {
            answering.decrementAndGet();
        }
    }

    private static void reply(HttpExchange exchange, Answer answer) throws IOException {
        if (!answer.delay().isZero()) {
            try {
                Thread.sleep(answer.delay().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
