package io.lapse.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.lapse.event.JsonCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Answers {@code GET /orders/{orderId}/status} from the fleet, with the faults in force when a request arrives. */
final class StatusEndpoint implements HttpHandler {

    private static final Logger log = LoggerFactory.getLogger(StatusEndpoint.class);
    private static final Pattern STATUS_PATH = Pattern.compile("/orders/([^/]+)/status");

    private record Reply(int status, String body) {
    }

    private final Fleet fleet;
    private final Supplier<FaultSettings> faults;
    private final ScheduledExecutorService delayer;

    /** @param delayer holds delayed answers, so that latency does not tie up the server's few handler threads */
    StatusEndpoint(Fleet fleet, Supplier<FaultSettings> faults, ScheduledExecutorService delayer) {
        this.fleet = fleet;
        this.faults = faults;
        this.delayer = delayer;
    }

    @Override
    public void handle(HttpExchange exchange) {
        FaultSettings now = faults.get();
        Reply reply = reply(exchange, now);
        if (now.latency().isZero()) {
            send(exchange, reply);
        } else {
            delayer.schedule(() -> send(exchange, reply), now.latency().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private Reply reply(HttpExchange exchange, FaultSettings now) {
        Matcher path = STATUS_PATH.matcher(exchange.getRequestURI().getPath());
        if (!path.matches()) {
            return new Reply(404, "{\"error\":\"no such resource\"}");
        }
        if (!"GET".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", "GET");
            return new Reply(405, "{\"error\":\"only GET is allowed\"}");
        }
        if (ThreadLocalRandom.current().nextDouble() < now.errorRate()) {
            return new Reply(503, "{\"error\":\"injected failure\"}");
        }
        return fleet.serve(path.group(1))
                .map(status -> new Reply(200, new String(JsonCodec.STATUS_PUSH.encode(status), StandardCharsets.UTF_8)))
                .orElseGet(() -> new Reply(404, "{\"error\":\"unknown order\"}"));
    }

    private static void send(HttpExchange exchange, Reply reply) {
        try (exchange) {
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), body.length);
            exchange.getResponseBody().write(body);
        } catch (IOException e) {
            log.debug("could not answer {}: the client is gone ({})", exchange.getRequestURI(), e.toString());
        }
    }
}
