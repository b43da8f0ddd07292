package io.lapse.operations.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.lapse.operations.cli.Arguments;
import io.lapse.store.AuditLog;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's JSON API under {@code /api/}: the on-call commands' results, the audit log, the overview's history,
 * and fire, cancel, redrive, replay and rebuild as POSTs that the {@link RequestGuard} lets through.
 */
final class ConsoleApi implements HttpHandler {

    private static final Logger log = LoggerFactory.getLogger(ConsoleApi.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ORDERS = "/api/orders/";
    private static final int MAX_BODY = 16 * 1024;
    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;

    private final OnCallCommands commands;
    private final RequestGuard guard;
    private final ConsoleAudit audit;
    private final RepublishApi republish;
    private final RebuildApi rebuild;
    private final LatenessHistory lateness;
    private final String expiredTopic;

    /** @param expiredTopic what the replay form offers first: replaying expiries is what on-call does most */
    ConsoleApi(
            OnCallCommands commands,
            RequestGuard guard,
            ConsoleAudit audit,
            RepublishApi republish,
            RebuildApi rebuild,
            LatenessHistory lateness,
            String expiredTopic) {
        this.commands = commands;
        this.expiredTopic = expiredTopic;
        this.guard = guard;
        this.audit = audit;
        this.republish = republish;
        this.rebuild = rebuild;
        this.lateness = lateness;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            route(exchange);
        } catch (RuntimeException e) {
            log.warn("console: {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            respond(exchange, 500, error(String.valueOf(e.getMessage())));
        }
    }

    private void route(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String method = exchange.getRequestMethod();
        if (path.equals("/api/session") && method.equals("GET")) {
            // no token needed: the page asks here whether it must ask for one
            respond(
                    exchange,
                    200,
                    JSON.createObjectNode()
                            .put("tokenRequired", guard.tokenRequired())
                            .put("user", commands.user())
                            .put("expiredTopic", expiredTopic)
                            .toString());
            return;
        }
        boolean acting = method.equals("POST");
        if (!acting && !method.equals("GET")) {
            respond(exchange, 405, error(method + " is not served here"));
            return;
        }
        Optional<RequestGuard.Refusal> refusal = acting ? guard.toAct(exchange) : guard.toRead(exchange);
        if (refusal.isPresent()) {
            respond(exchange, refusal.get().status(), error(refusal.get().reason()));
            return;
        }
        if (acting && path.startsWith(ORDERS) && (path.endsWith("/fire") || path.endsWith("/cancel"))) {
            act(exchange, path);
        } else if (acting && path.equals("/api/dead-letters/redrive")) {
            republish.redrive(exchange);
        } else if (acting && path.equals("/api/replay")) {
            republish.replay(exchange);
        } else if (acting && path.equals("/api/rebuild")) {
            rebuild.start(exchange);
        } else if (acting) {
            respond(exchange, 404, error("nothing to POST to at " + path));
        } else if (path.equals("/api/status")) {
            status(exchange);
        } else if (path.startsWith(ORDERS) && path.length() > ORDERS.length()) {
            order(exchange, decodePath(path.substring(ORDERS.length())));
        } else if (path.equals("/api/dead-letters")) {
            deadLetters(exchange, query(exchange));
        } else if (path.equals("/api/dead-letters/over-time")) {
            deadLettersOverTime(exchange);
        } else if (path.equals("/api/lateness")) {
            lateness(exchange);
        } else if (path.equals("/api/replay")) {
            republish.latestReplay(exchange);
        } else if (path.equals("/api/rebuild")) {
            rebuild.latest(exchange);
        } else if (path.equals("/api/audit")) {
            audit(exchange, query(exchange));
        } else {
            respond(exchange, 404, error("no such page: " + path));
        }
    }

    private void status(HttpExchange exchange) throws IOException {
        OnCallCommands.Outcome outcome = commands.status();
        // exit 1 is a status that found problems: still the status
        respondWith(exchange, outcome, outcome.exit() <= 1 ? 200 : 502);
    }

    private void order(HttpExchange exchange, String orderId) throws IOException {
        OnCallCommands.Outcome outcome = commands.inspect(orderId);
        respondWith(exchange, outcome, outcome.exit() == 0 ? 200 : 422);
    }

    private void act(HttpExchange exchange, String path) throws IOException {
        int slash = path.lastIndexOf('/');
        String orderId = decodePath(path.substring(ORDERS.length(), slash));
        String action = path.substring(slash + 1);
        String reason = text(body(exchange), "reason");
        if (reason == null) {
            respond(exchange, 400, error("say why: a reason is required, for the audit"));
            return;
        }
        OnCallCommands.Outcome outcome =
                action.equals("fire") ? commands.fire(orderId, reason) : commands.cancel(orderId, reason);
        // exit 1: refused (finished, or being published right now); the JSON says which
        respondWith(exchange, outcome, outcome.exit() == 0 ? 200 : outcome.exit() == 1 ? 409 : 422);
    }

    private void deadLetters(HttpExchange exchange, Map<String, String> query) throws IOException {
        OnCallCommands.Outcome outcome = commands.deadLetters(query.get("since"), query.get("reason"));
        if (outcome.exit() != 0) {
            respondWith(exchange, outcome, 422);
            return;
        }
        String topic = query.get("topic");
        String key = query.get("key");
        int limit = limit(query);
        long until;
        try {
            until = query.containsKey("until")
                    ? Arguments.time("until", query.get("until"), System.currentTimeMillis())
                    : Long.MAX_VALUE;
        } catch (RuntimeException e) {
            respond(exchange, 400, error(e.getMessage()));
            return;
        }
        List<JsonNode> letters = new ArrayList<>();
        JSON.readTree(outcome.out()).forEach(letters::add);
        ArrayNode shown = JSON.createArrayNode();
        letters.stream()
                .filter(l -> topic == null || l.path("source").asText("").startsWith(topic + "/"))
                .filter(l -> key == null || l.path("key").asText("").contains(key))
                .filter(l -> l.path("written").asLong() <= until)
                .sorted(Comparator.comparingLong(
                                (JsonNode l) -> l.path("written").asLong())
                        .reversed())
                .limit(limit)
                .forEach(shown::add);
        respond(exchange, 200, shown.toString());
    }

    private void deadLettersOverTime(HttpExchange exchange) throws IOException {
        long now = System.currentTimeMillis();
        OnCallCommands.Outcome outcome = commands.deadLetters(DeadLettersOverTime.since(), null);
        if (outcome.exit() != 0) {
            respondWith(exchange, outcome, 502);
            return;
        }
        respond(
                exchange,
                200,
                DeadLettersOverTime.count(JSON.readTree(outcome.out()), now).toString());
    }

    private void lateness(HttpExchange exchange) throws IOException {
        ObjectNode chart = JSON.createObjectNode()
                .put("intervalMillis", LatenessHistory.INTERVAL.toMillis())
                .put("spanMillis", LatenessHistory.SPAN.toMillis());
        lateness.urls().forEach(chart.putArray("urls")::add);
        ArrayNode points = chart.putArray("points");
        for (LatenessHistory.Point point : lateness.points()) {
            points.addObject()
                    .put("at", point.at())
                    .put("fired", point.fired())
                    .put("p50Millis", point.p50Millis())
                    .put("p99Millis", point.p99Millis());
        }
        respond(exchange, 200, chart.toString());
    }

    private void audit(HttpExchange exchange, Map<String, String> query) throws IOException {
        List<AuditLog.Entry> entries;
        try {
            entries = audit.newest(limit(query));
        } catch (Exception e) {
            respond(exchange, 502, error("cannot read the audit log from Redis: " + e.getMessage()));
            return;
        }
        respond(exchange, 200, JSON.writeValueAsString(entries));
    }

    /** The request's JSON body; a missing node when it has none or it is no JSON. */
    static JsonNode body(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_BODY);
        }
        try {
            JsonNode json = JSON.readTree(body);
            return json == null ? MissingNode.getInstance() : json;
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }

    /** @return the field's text, stripped, or null when it is missing, blank or no text */
    static String text(JsonNode body, String field) {
        JsonNode value = body.path(field);
        return value.isTextual() && !value.asText().isBlank() ? value.asText().strip() : null;
    }

    private static int limit(Map<String, String> query) {
        try {
            return Math.max(1, Math.min(MAX_LIMIT, Integer.parseInt(query.getOrDefault("limit", "" + DEFAULT_LIMIT))));
        } catch (NumberFormatException e) {
            return DEFAULT_LIMIT;
        }
    }

    /** Parameters given and not blank, decoded as a form encodes them. */
    private static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> parameters = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw == null) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            String[] nameAndValue = pair.split("=", 2);
            String value = nameAndValue.length == 2 ? URLDecoder.decode(nameAndValue[1], StandardCharsets.UTF_8) : "";
            if (!value.isBlank()) {
                parameters.put(URLDecoder.decode(nameAndValue[0], StandardCharsets.UTF_8), value.strip());
            }
        }
        return parameters;
    }

    /** A path segment as encodeURIComponent wrote it; a + there is a plus, not a space. */
    private static String decodePath(String raw) {
        return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    static void respondWith(HttpExchange exchange, OnCallCommands.Outcome outcome, int status) throws IOException {
        boolean document = !outcome.out().isBlank() && outcome.exit() <= 1;
        respond(exchange, status, document ? outcome.out() : error(outcome.error()));
    }

    static String error(String message) {
        return JSON.createObjectNode().put("error", message).toString();
    }

    static void respond(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        ConsoleAssets.secure(exchange);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }
}
