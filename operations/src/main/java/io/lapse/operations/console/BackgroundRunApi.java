package io.lapse.operations.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Optional;
import java.util.function.Function;

/**
 * One background action (a replay, a rebuild) over HTTP: starting one answers 202 with its state, or 409 while one
 * runs; its GET answers the run going on now or the last one, 404 before the first.
 */
final class BackgroundRunApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a run's state adds for the page, beside what every run shows. */
    @FunctionalInterface
    interface Details {
        void add(BackgroundJobs.State state, ObjectNode shown) throws IOException;
    }

    private final BackgroundJobs jobs;
    private final String action;
    private final Details details;

    /** @param action what runs, in the refusals ("replay", "rebuild") */
    BackgroundRunApi(BackgroundJobs jobs, String action, Details details) {
        this.jobs = jobs;
        this.action = action;
        this.details = details;
    }

    void start(
            Exchange exchange, String description, String reason, Function<StringWriter, OnCallCommands.Outcome> work)
            throws IOException {
        Optional<BackgroundJobs.State> started =
                jobs.start(description, exchange.caller().user(), reason, work);
        if (started.isEmpty()) {
            throw new Refusal(409, "a " + action + " is running: wait for its summary");
        }
        exchange.respond(202, shown(started.get()));
    }

    /** GET: the run going on now, or the last one. */
    void latest(Exchange exchange) throws IOException {
        Optional<BackgroundJobs.State> latest = jobs.latest();
        if (latest.isEmpty()) {
            throw new Refusal(404, "no " + action + " has run from this console");
        }
        exchange.respond(200, shown(latest.get()));
    }

    private String shown(BackgroundJobs.State state) throws IOException {
        ObjectNode node = JSON.createObjectNode()
                .put("id", state.id())
                .put("running", state.running())
                .put("user", state.user())
                .put("reason", state.reason())
                .put("progress", state.progress());
        details.add(state, node);
        return node.toString();
    }
}
