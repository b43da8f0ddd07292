package io.lapse.operations.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lapse.config.LapseConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Rebuild from the page: what {@code lapse rebuild} does, in the background, with its progress and then its summary.
 * It needs a reason, and is audited with the operator's name before it starts: it writes to Redis from the first
 * moment, and a rebuild the console could not audit does not start.
 */
final class RebuildApi {

    static final String AUDITED_AS = "every timer in Redis, from the compensator's state in Kafka";

    private final TimerRebuilder rebuilder;
    private final LapseConfig config;
    private final BackgroundRunApi rebuilds;
    private final ConsoleAudit audit;

    RebuildApi(TimerRebuilder rebuilder, LapseConfig config, BackgroundJobs rebuilds, ConsoleAudit audit) {
        this.rebuilder = rebuilder;
        this.config = config;
        this.rebuilds = new BackgroundRunApi(rebuilds, "rebuild", RebuildApi::details);
        this.audit = audit;
    }

    List<Route> routes() {
        return List.of(Route.act("/api/rebuild", this::start), Route.read("/api/rebuild", rebuilds::latest));
    }

    /** POST /api/rebuild {reason} */
    private void start(Exchange exchange) throws IOException {
        String reason = Exchange.required(exchange.body(), "reason", "say why: a reason is required, for the audit");
        String user = exchange.caller().user();
        rebuilds.start(exchange, "rebuild", reason, progress -> auditThenRebuild(reason, user, progress));
    }

    private OnCallCommands.Outcome auditThenRebuild(String reason, String user, StringWriter progress) {
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

    private static void details(BackgroundJobs.State state, ObjectNode node) {
        OnCallCommands.Outcome outcome = state.outcome();
        if (outcome != null) {
            node.put("exit", outcome.exit());
            if (outcome.out().isBlank()) {
                node.put("error", outcome.error());
            } else {
                node.put("summary", outcome.out().strip());
            }
        }
    }
}
