package io.lapse.puller;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.lapse.config.UpstreamSettings;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Pulls through Retry( CircuitBreaker( permit, request )): retries wait a jittered, growing backoff, only upstream's
 * failures count against the circuit, and every request waits for a rate permit. A pull the open circuit refuses is
 * not failed: it waits for the breaker to let it probe or pass. A pull upstream refused {@code max-attempts} times is
 * FAILED, unless it must wait for an answer (a final expiry): then it tries again after a backoff, for as long as it
 * takes. Always answers with an outcome; only interruption and cancellation (the puller closing) escape.
 */
final class ResilientUpstream {

    private static final Duration SMALLEST_BACKOFF = Duration.ofMillis(1);
    private static final double JITTER = 0.5;

    private final UpstreamClient client;
    private final Permits permits;
    private final BooleanSupplier running;
    private final Retry retry;
    private final CircuitBreaker breaker;
    private final BreakerWait breakerWait;
    private final IntervalFunction holdBackoff;
    private final AtomicInteger waiting = new AtomicInteger();

    ResilientUpstream(UpstreamSettings settings, UpstreamClient client, Permits permits, BooleanSupplier running) {
        this.client = client;
        this.permits = permits;
        this.running = running;
        // resilience4j refuses intervals under 1 ms, and retry-backoff=0 is a valid setting
        Duration backoff =
                settings.retryBackoff().compareTo(SMALLEST_BACKOFF) < 0 ? SMALLEST_BACKOFF : settings.retryBackoff();
        this.retry = Retry.of(
                "upstream",
                RetryConfig.custom()
                        .maxAttempts(settings.maxAttempts())
                        .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(backoff, 2.0, JITTER))
                        .retryOnException(e -> e instanceof UpstreamUnavailable)
                        .build());
        this.breaker = CircuitBreaker.of(
                "upstream",
                CircuitBreakerConfig.custom()
                        .slidingWindowSize(20)
                        .minimumNumberOfCalls(10)
                        .failureRateThreshold(50)
                        .waitDurationInOpenState(settings.circuitOpen())
                        .permittedNumberOfCallsInHalfOpenState(3)
                        .automaticTransitionFromOpenToHalfOpenEnabled(true)
                        .recordException(e -> e instanceof UpstreamUnavailable)
                        .ignoreException(e -> e instanceof InterruptedException || e instanceof CancellationException)
                        .build());
        this.breakerWait = new BreakerWait(breaker);
        Duration longestHold = settings.circuitOpen().compareTo(backoff) < 0 ? backoff : settings.circuitOpen();
        this.holdBackoff = IntervalFunction.ofExponentialRandomBackoff(backoff, 2.0, JITTER, longestHold);
    }

    /**
     * @param untilAnswered keep trying until upstream answers, instead of failing after max-attempts
     * @throws CancellationException when the puller closes before the pull is done
     */
    PullOutcome pull(String orderId, boolean untilAnswered) throws InterruptedException {
        Attempts attempts = new Attempts();
        for (int held = 1; ; ) {
            long mark = breakerWait.mark();
            try {
                return Retry.decorateCallable(
                                retry, CircuitBreaker.decorateCallable(breaker, () -> request(orderId, attempts)))
                        .call();
            } catch (CallNotPermittedException e) {
                waitFor(() -> breakerWait.awaitChangeSince(mark, running));
            } catch (UpstreamUnavailable e) {
                String reason = e.getMessage() + " after " + attempts.describe();
                if (!untilAnswered) {
                    return PullOutcome.failed(reason);
                }
                long pause = holdBackoff.apply(held++);
                waitFor(() -> sleepUnlessClosing(pause));
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                // the request throws nothing else; Callable only makes the compiler think so
                throw new IllegalStateException("unexpected failure pulling " + orderId, e);
            }
            if (!running.getAsBoolean()) {
                throw new CancellationException("puller closing: pull of order " + orderId + " abandoned");
            }
        }
    }

    private PullOutcome request(String orderId, Attempts attempts) throws Exception {
        permits.acquire();
        attempts.count++;
        return client.fetch(orderId);
    }

    private interface Wait {
        void run() throws InterruptedException;
    }

    private void waitFor(Wait wait) throws InterruptedException {
        waiting.incrementAndGet();
        try {
            wait.run();
        } finally {
            waiting.decrementAndGet();
        }
    }

    private void sleepUnlessClosing(long millis) throws InterruptedException {
        long until = System.nanoTime() + millis * 1_000_000;
        while (running.getAsBoolean() && until - System.nanoTime() > 0) {
            Thread.sleep(Math.min(millis, 200));
        }
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    /** Pulls waiting for upstream now: refused by the open circuit, or holding on for an answer. */
    int waiting() {
        return waiting.get();
    }

    /** Requests made by one pull; it runs on one thread, so a plain field does. */
    private static final class Attempts {
        int count;

        String describe() {
            return count + (count == 1 ? " attempt" : " attempts");
        }
    }
}
