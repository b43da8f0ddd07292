package io.lapse.lifecycle;

import io.lapse.config.Secrets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Start-up steps that need Kafka or Redis, retried with a growing pause until they succeed, so that a service started
 * before its infrastructure waits for it instead of dying: start order does not matter. Each failed attempt is one
 * log line; {@link #problem()} names what the process waits for, for readiness. close() ends every wait.
 */
public final class StartupRetry implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StartupRetry.class);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(500);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(15);

    /** One try of a start-up step. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run() throws Exception;
    }

    private final Map<String, String> waiting = new ConcurrentSkipListMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile boolean finished;

    /**
     * Runs the attempt until it succeeds or throws what {@code retryable} refuses (which then propagates).
     *
     * @param what what is waited for, as an operator would name it: "Redis at redis://redis:6379"
     */
    public <T> T until(String what, Attempt<T> attempt, Predicate<Exception> retryable) {
        return untilShown(Secrets.scrub(what), attempt, retryable);
    }

    private <T> T untilShown(String what, Attempt<T> attempt, Predicate<Exception> retryable) {
        for (int attempts = 1; ; attempts++) {
            try {
                T result = attempt.run();
                if (waiting.remove(what) != null) {
                    log.info("{} answered after {} attempts", what, attempts);
                }
                return result;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            } catch (Exception e) {
                if (!retryable.test(e)) {
                    waiting.remove(what);
                    throw e instanceof RuntimeException runtime
                            ? runtime
                            : new IllegalStateException("cannot reach " + what + ": " + e, e);
                }
                pause(what, attempts, e);
            }
        }
    }

    private void pause(String what, int attempts, Exception failure) {
        Duration pause = pauseAfter(attempts);
        String problem = "waiting for " + what + ": attempt " + attempts + " failed (" + describe(failure) + ")";
        waiting.put(what, problem);
        log.warn("{}; next attempt in {} ms", problem, pause.toMillis());
        try {
            if (closed.await(pause.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("stopped while waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
    }

    static Duration pauseAfter(int attempts) {
        long millis = FIRST_PAUSE.toMillis() << Math.min(attempts - 1, 10);
        return Duration.ofMillis(Math.min(millis, LONGEST_PAUSE.toMillis()));
    }

    /** The failure and its root cause in one line, credentials masked: "Unable to connect to …: Connection refused". */
    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        String rootText = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        if (!text.contains(rootText)) {
            text += ": " + rootText;
        }
        return Secrets.scrub(text.replaceAll("\\s+", " "));
    }

    /** Says that every start-up step has succeeded; until then {@link #problem()} reports that start-up goes on. */
    public void finished() {
        finished = true;
    }

    /** What the process waits for now, or that it is still starting; empty once start-up has finished. */
    public Optional<String> problem() {
        if (!waiting.isEmpty()) {
            return Optional.of(String.join("; ", waiting.values()));
        }
        return finished ? Optional.empty() : Optional.of("starting");
    }

    /** Ends every wait, now and later: the waiting start-up step fails with "stopped while waiting". */
    @Override
    public void close() {
        closed.countDown();
    }
}
