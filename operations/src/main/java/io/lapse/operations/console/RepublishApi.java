package io.lapse.operations.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Redrive and replay from the page: {@code lapse dlq redrive} and {@code lapse replay} with their own rules. A dry run
 * only reads, and answers with a {@code dryRunId}; a run must name the same user's dry run of the same parameters,
 * runs what that dry run looked at (a replay its window, fixed at the dry run), and needs a reason, which the command
 * audits with the operator's name.
 */
final class RepublishApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where a dead letter is, as dlq list shows it; Kafka's topic names are made of these characters. */
    private static final Pattern LETTER = Pattern.compile("[A-Za-z0-9._][A-Za-z0-9._-]*/\\d{1,9}@\\d{1,19}");

    private static final int MAX_LETTERS = 1000;
    private static final String DRY_RUN_ID = "dryRunId";
    private static final String NO_REASON = "say why: a reason is required, for the audit";

    private final OnCallCommands commands;
    private final BackgroundRunApi replays;
    private final Clock clock;
    private final DryRuns<List<String>> redriveDryRuns;
    private final DryRuns<ReplayRequest> replayDryRuns;

    RepublishApi(OnCallCommands commands, BackgroundJobs replays, Clock clock) {
        this.commands = commands;
        this.replays = new BackgroundRunApi(replays, "replay", RepublishApi::details);
        this.clock = clock;
        this.redriveDryRuns = new DryRuns<>("redrive", clock);
        this.replayDryRuns = new DryRuns<>("replay", clock);
    }

    List<Route> routes() {
        return List.of(
                Route.act("/api/dead-letters/redrive", this::redrive),
                Route.act("/api/replay", this::replay),
                Route.read("/api/replay", replays::latest));
    }

    /** POST /api/dead-letters/redrive {letters: [where, …], dryRun, dryRunId, reason} */
    private void redrive(Exchange exchange) throws IOException {
        JsonNode body = exchange.body();
        List<String> letters = new ArrayList<>();
        body.path("letters").forEach(letter -> letters.add(letter.asText("")));
        if (letters.isEmpty() || letters.size() > MAX_LETTERS) {
            throw new Refusal(400, "select between 1 and " + MAX_LETTERS + " dead letters");
        }
        Optional<String> odd =
                letters.stream().filter(l -> !LETTER.matcher(l).matches()).findFirst();
        if (odd.isPresent()) {
            throw new Refusal(400, "'" + odd.get() + "' is not topic/partition@offset");
        }
        // the same selection in another order is the same redrive
        List<String> selection = letters.stream().distinct().sorted().toList();
        String user = exchange.caller().user();
        if (body.path("dryRun").asBoolean(false)) {
            respondToDryRun(
                    exchange,
                    commands.redriveDryRun(selection),
                    () -> redriveDryRuns.remember(user, selection, selection));
            return;
        }
        String reason = Exchange.required(body, "reason", NO_REASON);
        List<String> reviewed = redriveDryRuns.take(Exchange.text(body, DRY_RUN_ID), user, selection);
        OnCallCommands.Outcome outcome = commands.redrive(reviewed, reason, user);
        // exit 1: something was refused or failed; the report says what
        ConsoleApi.respondWith(exchange, outcome, outcome.exit() <= 1 ? 200 : 422);
    }

    /**
     * POST /api/replay {topic, from, to, key, dryRun, dryRunId, reason}: a dry run answers at once with the window it
     * fixed, a run starts in the background and replays that window.
     */
    private void replay(Exchange exchange) throws IOException {
        JsonNode body = exchange.body();
        ReplayRequest asked;
        try {
            asked = new ReplayRequest(
                    Exchange.text(body, "topic"),
                    Exchange.text(body, "from"),
                    Exchange.text(body, "to"),
                    Exchange.text(body, "key"));
        } catch (IllegalArgumentException e) {
            throw new Refusal(400, e.getMessage());
        }
        String user = exchange.caller().user();
        if (body.path("dryRun").asBoolean(false)) {
            ReplayRequest fixed = asked.fixedAt(clock.millis());
            OnCallCommands.Outcome outcome = commands.replayDryRun(fixed);
            respondToDryRun(exchange, outcome, () -> replayDryRuns.remember(user, asked, fixed));
            return;
        }
        String reason = Exchange.required(body, "reason", NO_REASON);
        ReplayRequest reviewed = replayDryRuns.take(Exchange.text(body, DRY_RUN_ID), user, asked);
        replays.start(
                exchange, reviewed.describe(), reason, progress -> commands.replay(reviewed, reason, user, progress));
    }

    /** The dry run's report with the id a run of the same parameters names; no id for a dry run that failed. */
    private static void respondToDryRun(Exchange exchange, OnCallCommands.Outcome outcome, Supplier<String> remember)
            throws IOException {
        if (outcome.exit() > 1 || outcome.out().isBlank()) {
            ConsoleApi.respondWith(exchange, outcome, 422);
            return;
        }
        ObjectNode report = (ObjectNode) JSON.readTree(outcome.out());
        report.put(DRY_RUN_ID, remember.get());
        exchange.respond(200, report.toString());
    }

    private static void details(BackgroundJobs.State state, ObjectNode node) throws IOException {
        node.put("replay", state.description());
        OnCallCommands.Outcome outcome = state.outcome();
        if (outcome != null && outcome.exit() <= 1 && !outcome.out().isBlank()) {
            node.set("report", JSON.readTree(outcome.out()));
        } else if (outcome != null) {
            node.put("error", outcome.error());
        }
    }
}
