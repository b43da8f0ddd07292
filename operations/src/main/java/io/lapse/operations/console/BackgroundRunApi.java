package io.lapse.operations.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Optional;
import java.util.function.Function;

/**
 * One background action (a replay, a rebuild) over HTTP: starting one answers 202 with its state, or 409 while one
 * runs; its GET answers the run going on now or the last one, 404 before the first.
 */
final class BackgroundRunApi {

    /** A run's state as the page reads it. */
    @FunctionalInterface
    interface Shown {
        ObjectNode of(BackgroundJobs.State state) throws IOException;
    }

    private final BackgroundJobs jobs;
    private final String action;
    private final Shown shown;

    /** @param action what runs, in the refusals ("replay", "rebuild") */
    BackgroundRunApi(BackgroundJobs jobs, String action, Shown shown) {
        this.jobs = jobs;
        this.action = action;
        this.shown = shown;
    }

    void start(
            HttpExchange exchange,
            String description,
            String reason,
            Function<StringWriter, OnCallCommands.Outcome> work)
            throws IOException {
        Optional<BackgroundJobs.State> started = jobs.start(description, reason, work);
        if (started.isEmpty()) {
            ConsoleApi.respond(exchange, 409, ConsoleApi.error("a " + action + " is running: wait for its summary"));
            return;
        }
        ConsoleApi.respond(exchange, 202, shown.of(started.get()).toString());
    }

    void latest(HttpExchange exchange) throws IOException {
        Optional<BackgroundJobs.State> latest = jobs.latest();
        if (latest.isEmpty()) {
            ConsoleApi.respond(exchange, 404, ConsoleApi.error("no " + action + " has run from this console"));
            return;
        }
        ConsoleApi.respond(exchange, 200, shown.of(latest.get()).toString());
    }
}
