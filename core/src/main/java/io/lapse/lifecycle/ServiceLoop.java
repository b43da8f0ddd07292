package io.lapse.lifecycle;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one iteration after another on a named thread. A failing iteration is logged and retried after a growing
 * pause instead of ending the thread; only close() ends it.
 */
public final class ServiceLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServiceLoop.class);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /** One round of a service's work; it should return within about a second so that close() is prompt. */
    @FunctionalInterface
    public interface Iteration {
        void run() throws Exception;
    }

    private final String threadName;
    private final Iteration iteration;
    private final Runnable wakeup;
    private final Runnable cleanup;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile int consecutiveFailures;
    private Thread thread;

    /**
     * @param wakeup  interrupts a blocking iteration at close, e.g. {@code consumer::wakeup}
     * @param cleanup runs on the loop's own thread after the last iteration, e.g. closing a consumer
     */
    public ServiceLoop(String threadName, Iteration iteration, Runnable wakeup, Runnable cleanup) {
        this.threadName = threadName;
        this.iteration = iteration;
        this.wakeup = wakeup;
        this.cleanup = cleanup;
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
                try {
                    iteration.run();
                    consecutiveFailures = 0;
                } catch (InterruptedException e) {
                    // an interrupt asks the thread to stop, whoever sent it
                    running.set(false);
                    break;
                } catch (Exception e) {
                    if (!running.get()) {
                        break;
                    }
                    consecutiveFailures++;
                    Duration pause = pauseAfter(consecutiveFailures);
                    log.error("{}: iteration failed ({} in a row), next try in {} ms", threadName,
                            consecutiveFailures, pause.toMillis(), e);
                    sleep(pause);
                }
            }
        } finally {
            try {
                cleanup.run();
            } catch (RuntimeException e) {
                log.warn("{}: cleanup failed", threadName, e);
            }
        }
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

    /** Healthy while running and the latest iteration succeeded. */
    public boolean isHealthy() {
        return running.get() && consecutiveFailures == 0;
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
