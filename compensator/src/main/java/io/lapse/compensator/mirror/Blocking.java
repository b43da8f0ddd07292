package io.lapse.compensator.mirror;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for Redis or Kafka on the compensator's own threads, which have nothing else to do meanwhile; the timeout
 * keeps a hung server from stalling them for good, and the message says what did not happen.
 */
public final class Blocking {

    static final Duration TIMEOUT = Duration.ofSeconds(15);

    private Blocking() {}

    public static <T> T await(Future<T> reply, String what) {
        try {
            return reply.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "failed to " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("did not " + what + " within " + TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to " + what, e);
        }
    }
}
