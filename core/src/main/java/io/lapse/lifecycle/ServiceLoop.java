package io.lapse.lifecycle;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one iteration after another on a named thread. A failing iteration, even one that throws an {@link Error}, is
 * logged and retried after a growing pause instead of ending the thread; only close() ends it. A loop whose thread
 * ended anyway, or whose iteration has not finished within its bound, is dead or stuck, and says so to liveness.
 */
public final class ServiceLoop implements AutoCloseable {

    /**
     * Longer than any iteration that still works: Kafka's default API timeout (60 s) for a commit or an offset
     * lookup, plus Redis's command timeout; an iteration past this waits for something that will not come.
     */
    public static final Duration DEFAULT_STUCK_AFTER = Duration.ofMinutes(2);

    private static final Logger log = LoggerFactory.getLogger(ServiceLoop.class);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final long BETWEEN_ITERATIONS = -1;

    /** One round of a service's work; it should return within about a second so that close() is prompt. */
    @FunctionalInterface
    public interface Iteration {
        void run() throws Exception;
    }

    private final String threadName;
    private final Iteration iteration;
    private final Runnable wakeup;
    private final Runnable cleanup;
    private final Clock clock;
    private final Duration stuckAfter;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile int consecutiveFailures;
    private volatile long iterationStartedAt = BETWEEN_ITERATIONS;
    private volatile boolean ended;
    private volatile String lastFailure = "none";
    private volatile Thread thread;

    /**
     * @param wakeup  interrupts a blocking iteration at close, e.g. {@code consumer::wakeup}
     * @param cleanup runs on the loop's own thread after the last iteration, e.g. closing a consumer
     */
    public ServiceLoop(String threadName, Iteration iteration, Runnable wakeup, Runnable cleanup) {
        this(threadName, iteration, wakeup, cleanup, Clock.systemUTC(), DEFAULT_STUCK_AFTER);
    }

    /** @param stuckAfter how long one iteration may run before the loop counts as stuck */
    public ServiceLoop(
            String threadName,
            Iteration iteration,
            Runnable wakeup,
            Runnable cleanup,
            Clock clock,
            Duration stuckAfter) {
        this.threadName = threadName;
        this.iteration = iteration;
        this.wakeup = wakeup;
        this.cleanup = cleanup;
        this.clock = clock;
        this.stuckAfter = stuckAfter;
    }

    public synchronized void start() {
        if (closed.get()) {
            throw new IllegalStateException(threadName + " was closed; a closed loop cannot start again");
        }
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException(threadName + " was started already");
        }
        thread = new Thread(this::loop, threadName);
        thread.start();
    }

    private void loop() {
        try {
            while (running.get()) {
                iterationStartedAt = clock.millis();
                try {
                    iteration.run();
                    consecutiveFailures = 0;
                } catch (InterruptedException e) {
                    // an interrupt asks the thread to stop, whoever sent it
                    running.set(false);
                    lastFailure = "interrupted";
                    break;
                } catch (
                        Throwable e) { // an Error of one iteration (assertion, stack overflow) need not end the service
                    iterationStartedAt = BETWEEN_ITERATIONS;
                    if (!running.get()) {
                        break;
                    }
                    failed(e);
                } finally {
                    iterationStartedAt = BETWEEN_ITERATIONS;
                }
            }
        } finally {
            ended = true;
            try {
                cleanup.run();
            } catch (RuntimeException e) {
                log.warn("{}: cleanup failed", threadName, e);
            }
        }
    }

    /** The first failure in a row with its stack trace; the ones after it in one line each, until one succeeds. */
    private void failed(Throwable e) {
        consecutiveFailures++;
        lastFailure = e.toString();
        Duration pause = pauseAfter(consecutiveFailures);
        if (consecutiveFailures == 1) {
            log.error("{}: iteration failed, next try in {} ms", threadName, pause.toMillis(), e);
        } else {
            log.error(
                    "{}: iteration failed ({} in a row), next try in {} ms: {}",
                    threadName,
                    consecutiveFailures,
                    pause.toMillis(),
                    e.toString());
        }
        sleep(pause);
    }

    static Duration pauseAfter(int failures) {
        long millis = FIRST_PAUSE.toMillis() << Math.min(failures - 1, 10);
        return Duration.ofMillis(Math.min(millis, LONGEST_PAUSE.toMillis()));
    }

    private void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.set(false);
        }
    }

    /** Healthy while running, not stuck, and the latest iteration succeeded. */
    public boolean isHealthy() {
        return running.get() && consecutiveFailures == 0 && stuckFor().isEmpty();
    }

    /** Alive unless its thread ended without close() or its current iteration has run past the bound. */
    public boolean isAlive() {
        return livenessProblem().isEmpty();
    }

    /** Why this loop is dead or stuck; empty while it is alive, before start() and after close(). */
    public Optional<String> livenessProblem() {
        if (closed.get() || thread == null) {
            return Optional.empty();
        }
        if (ended) {
            return Optional.of(threadName + " has stopped (last failure: " + lastFailure + ")");
        }
        return stuckFor()
                .map(running -> threadName + " is stuck: its iteration has run for " + running.toSeconds()
                        + " s (bound " + stuckAfter.toSeconds() + " s)");
    }

    private Optional<Duration> stuckFor() {
        long started = iterationStartedAt;
        if (started == BETWEEN_ITERATIONS) {
            return Optional.empty();
        }
        Duration running = Duration.ofMillis(clock.millis() - started);
        return running.compareTo(stuckAfter) > 0 ? Optional.of(running) : Optional.empty();
    }

    /**
     * What is dead or stuck among these loops, one sentence each joined; empty while all live. A service answers for
     * its own loops with it ({@link Service#livenessProblem}), so that no registry of loops spans the JVM.
     */
    public static Optional<String> livenessProblemOf(ServiceLoop... loops) {
        List<String> problems = Arrays.stream(loops)
                .filter(Objects::nonNull)
                .map(ServiceLoop::livenessProblem)
                .flatMap(Optional::stream)
                .toList();
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Thread t;
        synchronized (this) {
            running.set(false);
            t = thread;
        }
        if (t == null) {
            cleanup.run();
            return;
        }
        wakeup.run();
        try {
            t.join(STOP_TIMEOUT.toMillis());
            if (t.isAlive()) {
                log.warn("{} did not stop within {} s; interrupting it", threadName, STOP_TIMEOUT.toSeconds());
                t.interrupt();
                t.join(STOP_TIMEOUT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
