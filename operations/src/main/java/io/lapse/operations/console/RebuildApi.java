package io.lapse.operations.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.lapse.config.LapseConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * Rebuild from the page: what {@code lapse rebuild} does, in the background, with its progress and then its summary.
 * It needs a reason, and is audited with the console's user before it starts: it writes to Redis from the first
 * moment, and a rebuild the console could not audit does not start.
 */
final class RebuildApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final String AUDITED_AS = "every timer in Redis, from the compensator's state in Kafka";

    private final TimerRebuilder rebuilder;
    private final LapseConfig config;
    private final BackgroundRunApi rebuilds;
    private final ConsoleAudit audit;
    private final String user;

    RebuildApi(TimerRebuilder rebuilder, LapseConfig config, BackgroundJobs rebuilds, ConsoleAudit audit, String user) {
        this.rebuilder = rebuilder;
        this.config = config;
        this.rebuilds = new BackgroundRunApi(rebuilds, "rebuild", RebuildApi::state);
        this.audit = audit;
        this.user = user;
    }

    /** POST /api/rebuild {reason} */
    void start(HttpExchange exchange) throws IOException {
        String reason = ConsoleApi.text(ConsoleApi.body(exchange), "reason");
        if (reason == null) {
            ConsoleApi.respond(exchange, 400, ConsoleApi.error("say why: a reason is required, for the audit"));
            return;
        }
        rebuilds.start(exchange, "rebuild", reason, progress -> auditThenRebuild(reason, progress));
    }

    /** GET /api/rebuild: the rebuild running now, or the last one. */
    void latest(HttpExchange exchange) throws IOException {
        rebuilds.latest(exchange);
    }

    private OnCallCommands.Outcome auditThenRebuild(String reason, StringWriter progress) {
        try {
            audit.record("rebuild", AUDITED_AS, reason, user);
        } catch (Exception e) {
            return new OnCallCommands.Outcome(
                    2, "", "cannot write the audit log to Redis, so no rebuild: " + e.getMessage());
        }
        return rebuild(progress);
    }

    private OnCallCommands.Outcome rebuild(StringWriter progress) {
        ByteArrayOutputStream summary = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(summary, true, StandardCharsets.UTF_8);
                PrintStream err = new PrintStream(new WriterOutput(progress), true, StandardCharsets.UTF_8)) {
            int exit = rebuilder.rebuild(config, out, err);
            out.flush();
            err.flush();
            return new OnCallCommands.Outcome(exit, summary.toString(StandardCharsets.UTF_8), progress.toString());
        }
    }

    private static ObjectNode state(BackgroundJobs.State state) {
        ObjectNode node = JSON.createObjectNode()
                .put("id", state.id())
                .put("running", state.running())
                .put("reason", state.reason())
                .put("progress", state.progress());
        OnCallCommands.Outcome outcome = state.outcome();
        if (outcome != null) {
            node.put("exit", outcome.exit());
            if (outcome.out().isBlank()) {
                node.put("error", outcome.error());
            } else {
                node.put("summary", outcome.out().strip());
            }
        }
        return node;
    }
}
