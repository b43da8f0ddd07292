package io.lapse.operations.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lapse.operations.cli.Arguments;
import io.lapse.operations.cli.OnCallError;
import io.lapse.store.oncall.AuditLog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's own pages of JSON: who is asking ({@code /api/session}), what the on-call commands show (status, an
 * order, a silent cohort's orders, dead letters), the audit log, the overview's history, and firing and cancelling an order.
 */
final class ConsoleApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;

    private final OnCallCommands commands;
    private final RequestGuard guard;
    private final ConsoleAudit audit;
    private final LatenessHistory lateness;
    private final String expiredTopic;

    /** @param expiredTopic what the replay form offers first: replaying expiries is what on-call does most */
    ConsoleApi(
            OnCallCommands commands,
            RequestGuard guard,
            ConsoleAudit audit,
            LatenessHistory lateness,
            String expiredTopic) {
        this.commands = commands;
        this.guard = guard;
        this.audit = audit;
        this.lateness = lateness;
        this.expiredTopic = expiredTopic;
    }

    List<Route> routes() {
        return List.of(
                Route.anyone("/api/session", this::session),
                Route.read("/api/status", this::status),
                Route.read("/api/orders/([^/]+)", this::order),
                Route.act("/api/orders/([^/]+)/(fire|cancel)", this::act),
                Route.read("/api/cohorts/([^/]+)", this::cohort),
                Route.read("/api/dead-letters", this::deadLetters),
                Route.read("/api/dead-letters/over-time", this::deadLettersOverTime),
                Route.read("/api/lateness", this::lateness),
                Route.read("/api/audit", this::audit));
    }

    /** No token needed: the page asks here whether it must ask for one, and then who it acts as. */
    private void session(Exchange exchange) {
        ObjectNode session = JSON.createObjectNode()
                .put("tokenRequired", guard.tokenRequired())
                .put("expiredTopic", expiredTopic);
        Optional<Caller> caller = guard.who(exchange);
        caller.ifPresent(c -> session.put("user", c.user())
                .put("role", c.role().word())
                .put("mayAct", c.role().mayAct()));
        exchange.respond(200, session.toString());
    }

    private void status(Exchange exchange) {
        OnCallCommands.Outcome outcome = commands.status();
        // exit 1 is a status that found problems: still the status
        respondWith(exchange, outcome, outcome.exit() <= 1 ? 200 : 502);
    }

    private void order(Exchange exchange) {
        OnCallCommands.Outcome outcome = commands.inspect(exchange.pathPart(1));
        respondWith(exchange, outcome, outcome.exit() == 0 ? 200 : 422);
    }

    /** A page of a silent cohort's orders; one that is not silent (any more) is exit 1, its one line the answer. */
    private void cohort(Exchange exchange) {
        Map<String, String> query = exchange.query();
        OnCallCommands.Outcome outcome =
                commands.cohort(exchange.pathPart(1), number(query, "offset", 0, 0, Integer.MAX_VALUE), limit(query));
        respondWith(exchange, outcome, outcome.exit() == 0 ? 200 : 422);
    }

    private void act(Exchange exchange) throws IOException {
        String orderId = exchange.pathPart(1);
        String reason = Exchange.required(exchange.body(), "reason", "say why: a reason is required, for the audit");
        String user = exchange.caller().user();
        OnCallCommands.Outcome outcome = exchange.pathPart(2).equals("fire")
                ? commands.fire(orderId, reason, user)
                : commands.cancel(orderId, reason, user);
        // exit 1: refused (finished, or being published right now); the JSON says which
        respondWith(exchange, outcome, outcome.exit() == 0 ? 200 : outcome.exit() == 1 ? 409 : 422);
    }

    private void deadLetters(Exchange exchange) throws IOException {
        Map<String, String> query = exchange.query();
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
        } catch (OnCallError e) {
            throw new Refusal(400, e.getMessage());
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
        exchange.respond(200, shown.toString());
    }

    private void deadLettersOverTime(Exchange exchange) throws IOException {
        long now = System.currentTimeMillis();
        OnCallCommands.Outcome outcome = commands.deadLetters(DeadLettersOverTime.since(), null);
        if (outcome.exit() != 0) {
            respondWith(exchange, outcome, 502);
            return;
        }
        exchange.respond(
                200,
                DeadLettersOverTime.count(JSON.readTree(outcome.out()), now).toString());
    }

    private void lateness(Exchange exchange) {
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
        exchange.respond(200, chart.toString());
    }

    private void audit(Exchange exchange) throws IOException {
        List<AuditLog.Entry> entries;
        try {
            entries = audit.newest(limit(exchange.query()));
        } catch (Exception e) {
            throw new Refusal(502, "cannot read the audit log from Redis: " + e.getMessage());
        }
        exchange.respond(200, JSON.writeValueAsString(entries));
    }

    private static int limit(Map<String, String> query) {
        return number(query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
    }

    /** The query's whole number, within {@code least} and {@code most}; {@code otherwise} when it has none. */
    private static int number(Map<String, String> query, String name, int otherwise, int least, int most) {
        try {
            return Math.max(least, Math.min(most, Integer.parseInt(query.getOrDefault(name, "" + otherwise))));
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** A command's JSON document when it did its work, else the one line saying what stopped it. */
    static void respondWith(Exchange exchange, OnCallCommands.Outcome outcome, int status) {
        boolean document = !outcome.out().isBlank() && outcome.exit() <= 1;
        exchange.respond(status, document ? outcome.out() : Exchange.error(outcome.error()));
    }
}
