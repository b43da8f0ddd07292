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
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runs of one action (a replay, a rebuild) the console does in the background, one at a time: they can take
 * minutes, longer than a request should last. The page polls their {@link State}: the progress line while one runs,
 * then its outcome.
 */
final class BackgroundJobs implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BackgroundJobs.class);

    /**
     * One run as the page sees it.
     *
     * @param description what runs, in words
     * @param user        who started it
     * @param progress    the progress line the run drew last; empty when it drew none
     * @param outcome     null while it runs
     */
    record State(
            long id, String description, String user, String reason, String progress, OnCallCommands.Outcome outcome) {

        boolean running() {
            return outcome == null;
        }
    }

    private final String action;
    private final ExecutorService thread;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicReference<Job> latest = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** @param action what runs, naming the thread and the failure a run ends with when it throws */
    BackgroundJobs(String action) {
        this.action = action;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread running = new Thread(r, "lapse-console-" + action);
            running.setDaemon(true);
            return running;
        });
    }

    private final class Job {
        final long id = ids.incrementAndGet();
        final String description;
        final String user;
        final String reason;
        final Function<StringWriter, OnCallCommands.Outcome> work;
        final StringWriter progress = new StringWriter();
        volatile OnCallCommands.Outcome outcome;

        Job(String description, String user, String reason, Function<StringWriter, OnCallCommands.Outcome> work) {
            this.description = description;
            this.user = user;
            this.reason = reason;
            this.work = work;
        }

        void run() {
            OnCallCommands.Outcome done;
            try {
                done = work.apply(progress);
            } catch (RuntimeException e) {
                log.warn("console: {} {} failed", action, description, e);
                done = new OnCallCommands.Outcome(2, "", action + ": " + e.getMessage());
            }
            outcome = done;
        }

        State state() {
            // a bar is redrawn after \r and erased with blanks when a phase ends: the last line with text is current
            String shown = Arrays.stream(progress.toString().split("[\r\n]"))
                    .map(String::strip)
                    .filter(line -> !line.isEmpty())
                    .reduce((first, second) -> second)
                    .orElse("");
            return new State(id, description, user, reason, shown, outcome);
        }
    }

    /**
     * @param work the run, drawing its progress to the writer it is given
     * @return the run started, or empty when one is still running
     */
    Optional<State> start(
            String description, String user, String reason, Function<StringWriter, OnCallCommands.Outcome> work) {
        Job job = new Job(description, user, reason, work);
        Job previous = latest.get();
        if ((previous != null && previous.outcome == null) || !latest.compareAndSet(previous, job)) {
            return Optional.empty();
        }
        thread.execute(job::run);
        return Optional.of(job.state());
    }

    /** The run going on now, or the last one. */
    Optional<State> latest() {
        return Optional.ofNullable(latest.get()).map(Job::state);
    }

    /** Waits a moment for a running job: it is interrupted between Kafka's answers otherwise. */
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
