package io.lapse.bench.peers.system;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A round repeated on a named thread of its own until closed: the pollers, scanners and consumers of the designs. A
 * failure ends the loop; {@link #check} throws it, and the systems call it at every re-arm, so that a dead poller
 * fails the run instead of showing as missed fires.
 */
public final class Loop implements AutoCloseable {

    /** One round; an interruption means the loop is being closed. */
    public interface Round {
        void run() throws Exception;
    }

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(30);

    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running = true;

    private Loop(String name, Round round) {
        this.thread = new Thread(() -> run(round), name);
    }

    public static Loop start(String name, Round round) {
        Loop loop = new Loop(name, round);
        loop.thread.start();
        return loop;
    }

    private void run(Round round) {
        try {
            while (running) {
                round.run();
            }
        } catch (InterruptedException e) {
            // close() stopped the round
        } catch (Exception e) {
            if (running) {
                failure.set(e);
            }
        }
    }

    public void check() {
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException(thread.getName() + " failed", failed);
        }
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        thread.interrupt();
        try {
            thread.join(JOIN_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
