package io.lapse.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.simulator.FaultSettings.Fault;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers {@code GET /orders/{orderId}/status} from the fleet, with the faults and the outage in force when a request
 * arrives, and {@code GET /} with a short description (so that a client can tell this API is being served). A request
 * to the bulk path, when one is served, goes to the {@link BulkEndpoint}.
 */
final class StatusEndpoint implements HttpHandler {

    private static final Logger log = LoggerFactory.getLogger(StatusEndpoint.class);
    private static final Pattern STATUS_PATH = Pattern.compile("/orders/([^/]+)/status");
    private static final String MALFORMED = "{\"orderId\":\"";

    record Reply(int status, String body) {}

    private final Fleet fleet;
    private final Supplier<FaultSettings> faults;
    private final OutageWindow outage;
    private final Map<String, String> requiredHeaders;
    private final Map<String, Integer> refusals;
    private final RequestLog requests;
    private final ScheduledExecutorService delayer;
    private final BulkEndpoint bulk;

    /**
     * @param requiredHeaders headers every status request must carry, else it is answered 401
     * @param refusals       orders whose every status request is answered this status, outage or not
     * @param delayer        holds delayed answers, so that latency does not tie up the server's few handler threads
     * @param bulk           answers the bulk path, when one is served
     */
    StatusEndpoint(
            Fleet fleet,
            Supplier<FaultSettings> faults,
            OutageWindow outage,
            Map<String, String> requiredHeaders,
            Map<String, Integer> refusals,
            RequestLog requests,
            ScheduledExecutorService delayer,
            BulkEndpoint bulk) {
        this.fleet = fleet;
        this.faults = faults;
        this.outage = outage;
        this.requiredHeaders = requiredHeaders;
        this.refusals = refusals;
        this.requests = requests;
        this.delayer = delayer;
        this.bulk = bulk;
    }

    @Override
    public void handle(HttpExchange exchange) {
        long now = System.nanoTime();
        FaultSettings settings = faults.get();
        if (bulk.serves(exchange.getRequestURI().getPath())) {
            bulk.handle(exchange, now);
            return;
        }
        Matcher path = STATUS_PATH.matcher(exchange.getRequestURI().getPath());
        if (!path.matches()) {
            send(
                    exchange,
                    exchange.getRequestURI().getPath().equals("/")
                            ? new Reply(
                                    200, "{\"service\":\"simulated upstream\",\"status\":\"/orders/{orderId}/status\"}")
                            : new Reply(404, "{\"error\":\"no such resource\"}"));
            return;
        }
        if (!"GET".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", "GET");
            send(exchange, new Reply(405, "{\"error\":\"only GET is allowed\"}"));
            return;
        }
        if (!authorized(exchange, requiredHeaders)) {
            return;
        }
        String orderId = path.group(1);
        requests.record(orderId, now);
        Integer refused = refusals.get(orderId);
        if (refused != null) {
            send(exchange, new Reply(refused, "{\"error\":\"refused for this order\"}"));
            return;
        }
        Outage.Kind down = outage.at(now);
        if (down == Outage.Kind.STALL) {
            later(exchange, () -> answer(orderId, Fault.NONE), outage.remainingNanos(now));
            return;
        }
        Fault fault = down == Outage.Kind.ERRORS ? Fault.ERROR : settings.draw(ThreadLocalRandom.current());
        long delay = (fault == Fault.STALL ? settings.stallTime() : settings.drawLatency(ThreadLocalRandom.current()))
                .toNanos();
        later(exchange, () -> answer(orderId, fault), delay);
    }

    /** Answers 401 and says false when the request lacks a required header or its value. */
    static boolean authorized(HttpExchange exchange, Map<String, String> requiredHeaders) {
        for (Map.Entry<String, String> required : requiredHeaders.entrySet()) {
            if (!required.getValue().equals(exchange.getRequestHeaders().getFirst(required.getKey()))) {
                send(exchange, new Reply(401, "{\"error\":\"missing or wrong " + required.getKey() + " header\"}"));
                return false;
            }
        }
        return true;
    }

    private Reply answer(String orderId, Fault fault) {
        return switch (fault) {
            case ERROR -> new Reply(503, "{\"error\":\"injected failure\"}");
            case NOT_FOUND -> notFound();
            case MALFORMED -> new Reply(200, MALFORMED + orderId);
            case OVERSIZED ->
                fleet.current(orderId).map(StatusEndpoint::oversized).orElseGet(StatusEndpoint::notFound);
            case NONE, STALL ->
                fleet.serve(orderId).map(status -> new Reply(200, json(status))).orElseGet(StatusEndpoint::notFound);
        };
    }

    static Reply notFound() {
        return new Reply(404, "{\"error\":\"unknown order\"}");
    }

    /** A valid status whose payload carries padding up to the oversized length. */
    private static Reply oversized(StatusPush status) {
        return new Reply(200, oversizedJson(status));
    }

    /** A valid status whose payload carries padding up to the oversized length. */
    static String oversizedJson(StatusPush status) {
        String open = json(status).replaceFirst("}$", ",\"padding\":\"");
        return open + "x".repeat(FaultSettings.OVERSIZED_BYTES - open.length() - 2) + "\"}";
    }

    static String json(StatusPush status) {
        return new String(JsonCodec.STATUS_PUSH.encode(status), StandardCharsets.UTF_8);
    }

    private void later(HttpExchange exchange, Supplier<Reply> reply, long delayNanos) {
        later(delayer, exchange, reply, delayNanos);
    }

    /** Sends the reply after the delay, on the delayer, so that no handler thread waits. */
    static void later(ScheduledExecutorService delayer, HttpExchange exchange, Supplier<Reply> reply, long delayNanos) {
        if (delayNanos <= 0) {
            send(exchange, reply.get());
        } else {
            delayer.schedule(() -> send(exchange, reply.get()), delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    static void send(HttpExchange exchange, Reply reply) {
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
