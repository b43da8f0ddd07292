package io.lapse.operations.console;

import java.io.StringWriter;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replay the console runs in the background, one at a time: a replay can read a topic for minutes, longer than a
 * request should last. The page polls its {@link State}: the replay's progress line while it runs, then its summary.
 * The replay audits itself, with the console's user and the reason given on the page.
 */
final class ReplayJobs implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplayJobs.class);

    /**
     * What the page asks to replay; the replay command checks the rest (times, the topic's existence).
     *
     * @param key null for every order's records
     */
    record Request(String topic, String from, String to, String key) {

        Request {
            if (topic == null || from == null) {
                throw new IllegalArgumentException("a replay needs a topic and a start (from)");
            }
            to = to == null ? "now" : to;
        }

        /** The replay in words, for the audit. */
        String describe() {
            return topic + " from " + from + " to " + to + (key == null ? "" : " key " + key);
        }
    }

    /**
     * One replay as the page sees it.
     *
     * @param progress the progress line the replay drew last; empty when it drew none
     * @param outcome  null while it runs
     */
    record State(long id, Request request, String reason, String progress, OnCallCommands.Outcome outcome) {

        boolean running() {
            return outcome == null;
        }
    }

    private final OnCallCommands commands;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread replaying = new Thread(r, "lapse-console-replay");
        replaying.setDaemon(true);
        return replaying;
    });
    private final AtomicLong ids = new AtomicLong();
    private final AtomicReference<Job> latest = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    ReplayJobs(OnCallCommands commands) {
        this.commands = commands;
    }

    private final class Job {
        final long id = ids.incrementAndGet();
        final Request request;
        final String reason;
        final StringWriter stderr = new StringWriter();
        volatile OnCallCommands.Outcome outcome;

        Job(Request request, String reason) {
            this.request = request;
            this.reason = reason;
        }

        void run() {
            OnCallCommands.Outcome done;
            try {
                done = commands.replay(
                        request.topic(), request.from(), request.to(), request.key(), false, reason, stderr);
            } catch (Exception e) {
                log.warn("console: the replay of {} failed", request.describe(), e);
                done = new OnCallCommands.Outcome(2, "", "replay: " + e.getMessage());
            }
            outcome = done;
        }

        State state() {
            // the bar is redrawn after \r and erased with blanks when a phase ends: the last line with text is current
            String shown = Arrays.stream(stderr.toString().split("[\r\n]"))
                    .map(String::strip)
                    .filter(line -> !line.isEmpty())
                    .reduce((first, second) -> second)
                    .orElse("");
            return new State(id, request, reason, shown, outcome);
        }
    }

    /** @return the replay started, or empty when one is still running */
    Optional<State> start(Request request, String reason) {
        Job job = new Job(request, reason);
        Job previous = latest.get();
        if ((previous != null && previous.outcome == null) || !latest.compareAndSet(previous, job)) {
            return Optional.empty();
        }
        thread.execute(job::run);
        return Optional.of(job.state());
    }

    /** The replay running now, or the last one to run. */
    Optional<State> latest() {
        return Optional.ofNullable(latest.get()).map(Job::state);
    }

    /** Waits a moment for a running replay: it is interrupted between Kafka's answers otherwise. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        thread.shutdown();
        try {
            if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
