package io.lapse.operations.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Redrive and replay from the page: {@code lapse dlq redrive} and {@code lapse replay} with their own rules. A dry run
 * only reads, and answers with a {@code dryRunId}; a run must name the dry run of the same parameters, and needs a
 * reason, which the command audits with the console's user.
 */
final class RepublishApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where a dead letter is, as dlq list shows it; Kafka's topic names are made of these characters. */
    private static final Pattern LETTER = Pattern.compile("[A-Za-z0-9._][A-Za-z0-9._-]*/\\d{1,9}@\\d{1,19}");

    private static final int MAX_LETTERS = 1000;
    private static final String DRY_RUN_ID = "dryRunId";

    private final OnCallCommands commands;
    private final BackgroundRunApi replays;
    private final DryRuns<List<String>> redriveDryRuns;
    private final DryRuns<ReplayRequest> replayDryRuns;

    RepublishApi(
            OnCallCommands commands,
            BackgroundJobs replays,
            DryRuns<List<String>> redriveDryRuns,
            DryRuns<ReplayRequest> replayDryRuns) {
        this.commands = commands;
        this.replays = new BackgroundRunApi(replays, "replay", RepublishApi::state);
        this.redriveDryRuns = redriveDryRuns;
        this.replayDryRuns = replayDryRuns;
    }

    /** POST /api/dead-letters/redrive {letters: [where, …], dryRun, dryRunId, reason} */
    void redrive(HttpExchange exchange) throws IOException {
        JsonNode body = ConsoleApi.body(exchange);
        List<String> letters = new ArrayList<>();
        body.path("letters").forEach(letter -> letters.add(letter.asText("")));
        if (letters.isEmpty() || letters.size() > MAX_LETTERS) {
            ConsoleApi.respond(
                    exchange, 400, ConsoleApi.error("select between 1 and " + MAX_LETTERS + " dead letters"));
            return;
        }
        Optional<String> odd =
                letters.stream().filter(l -> !LETTER.matcher(l).matches()).findFirst();
        if (odd.isPresent()) {
            ConsoleApi.respond(exchange, 400, ConsoleApi.error("'" + odd.get() + "' is not topic/partition@offset"));
            return;
        }
        // the same selection in another order is the same redrive
        List<String> selection = letters.stream().distinct().sorted().toList();
        if (body.path("dryRun").asBoolean(false)) {
            OnCallCommands.Outcome outcome = commands.redrive(letters, true, null);
            respondToDryRun(exchange, outcome, redriveDryRuns, selection);
            return;
        }
        String reason = ConsoleApi.text(body, "reason");
        if (reason == null) {
            ConsoleApi.respond(exchange, 400, ConsoleApi.error("say why: a reason is required, for the audit"));
            return;
        }
        if (refused(exchange, redriveDryRuns.take(ConsoleApi.text(body, DRY_RUN_ID), selection))) {
            return;
        }
        OnCallCommands.Outcome outcome = commands.redrive(letters, false, reason);
        // exit 1: something was refused or failed; the report says what
        ConsoleApi.respondWith(exchange, outcome, outcome.exit() <= 1 ? 200 : 422);
    }

    /** POST /api/replay {topic, from, to, key, dryRun, dryRunId, reason}: a dry run answers at once, a run starts in the back. */
    void replay(HttpExchange exchange) throws IOException {
        JsonNode body = ConsoleApi.body(exchange);
        ReplayRequest request;
        try {
            request = new ReplayRequest(
                    ConsoleApi.text(body, "topic"),
                    ConsoleApi.text(body, "from"),
                    ConsoleApi.text(body, "to"),
                    ConsoleApi.text(body, "key"));
        } catch (IllegalArgumentException e) {
            ConsoleApi.respond(exchange, 400, ConsoleApi.error(e.getMessage()));
            return;
        }
        if (body.path("dryRun").asBoolean(false)) {
            OnCallCommands.Outcome outcome = commands.replay(
                    request.topic(), request.from(), request.to(), request.key(), true, null, new StringWriter());
            respondToDryRun(exchange, outcome, replayDryRuns, request);
            return;
        }
        String reason = ConsoleApi.text(body, "reason");
        if (reason == null) {
            ConsoleApi.respond(exchange, 400, ConsoleApi.error("say why: a reason is required, for the audit"));
            return;
        }
        if (refused(exchange, replayDryRuns.take(ConsoleApi.text(body, DRY_RUN_ID), request))) {
            return;
        }
        replays.start(
                exchange,
                request.describe(),
                reason,
                progress -> commands.replay(
                        request.topic(), request.from(), request.to(), request.key(), false, reason, progress));
    }

    /** GET /api/replay: the replay running now, or the last one. */
    void latestReplay(HttpExchange exchange) throws IOException {
        replays.latest(exchange);
    }

    /** The dry run's report with the id a run of the same parameters names; no id for a dry run that failed. */
    private static <P> void respondToDryRun(
            HttpExchange exchange, OnCallCommands.Outcome outcome, DryRuns<P> dryRuns, P parameters)
            throws IOException {
        if (outcome.exit() > 1 || outcome.out().isBlank()) {
            ConsoleApi.respondWith(exchange, outcome, 422);
            return;
        }
        ObjectNode report = (ObjectNode) JSON.readTree(outcome.out());
        report.put(DRY_RUN_ID, dryRuns.remember(parameters));
        ConsoleApi.respond(exchange, 200, report.toString());
    }

    private static boolean refused(HttpExchange exchange, Optional<RequestGuard.Refusal> refusal) throws IOException {
        if (refusal.isPresent()) {
            ConsoleApi.respond(
                    exchange,
                    refusal.get().status(),
                    ConsoleApi.error(refusal.get().reason()));
        }
        return refusal.isPresent();
    }

    private static ObjectNode state(BackgroundJobs.State state) throws IOException {
        ObjectNode node = JSON.createObjectNode()
                .put("id", state.id())
                .put("running", state.running())
                .put("replay", state.description())
                .put("reason", state.reason())
                .put("progress", state.progress());
        OnCallCommands.Outcome outcome = state.outcome();
        if (outcome != null && outcome.exit() <= 1 && !outcome.out().isBlank()) {
            node.set("report", JSON.readTree(outcome.out()));
        } else if (outcome != null) {
            node.put("error", outcome.error());
        }
        return node;
    }
}
