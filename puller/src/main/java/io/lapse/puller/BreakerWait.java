package io.lapse.puller;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.util.function.BooleanSupplier;

/**
 * Lets a pull the circuit breaker refused wait for the breaker's next change of state (open → half-open, where a few
 * pulls probe upstream, → closed, where all go) instead of failing it. Waiters take a mark before they call, so a
 * change between their call and their wait is not missed.
 */
final class BreakerWait {

    /** Bounds each wait, so that a closing puller is noticed. */
    private static final long SLICE_MILLIS = 500;

    private long transitions;

    BreakerWait(CircuitBreaker breaker) {
        breaker.getEventPublisher().onStateTransition(event -> changed());
    }

    private synchronized void changed() {
        transitions++;
        notifyAll();
    }

    synchronized long mark() {
        return transitions;
    }

    /** Returns once the breaker changed state after the mark was taken, or the puller closes. */
    synchronized void awaitChangeSince(long mark, BooleanSupplier running) throws InterruptedException {
        while (transitions == mark && running.getAsBoolean()) {
            wait(SLICE_MILLIS);
        }
    }
}
