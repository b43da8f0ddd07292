package io.lapse.puller;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.lapse.config.UpstreamSettings;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Pulls through Retry( CircuitBreaker( permit, request )): retries wait a jittered, growing backoff, and every request
 * waits for a rate permit. Only an outage counts against the circuit: a request upstream did not answer while it
 * answered another pull 200 within the last {@code upstream.circuit-open} is about that order (its data breaks
 * upstream, or it alone is slow), retried all the same; counted, a few such orders would keep the circuit open for
 * every other order. A pull the open circuit refuses is not failed: it waits for the breaker to let it probe or pass.
 * A pull upstream did not answer {@code max-attempts} times is FAILED and {@link PullOutcome#unanswered()
 * unanswered}: a final expiry's is tried again later by {@link FinalAttemptHold}, off the pull threads. Always answers
 * with an outcome; only interruption and cancellation (the puller closing) escape.
 *
 * <p>A bulk request ({@link #pullBulk}) goes the same way, as one request: it takes a permit per order, the circuit
 * counts it once, and it is retried as a whole.
 */
final class ResilientUpstream {

    private static final Duration SMALLEST_BACKOFF = Duration.ofMillis(1);
    private static final double JITTER = 0.5;

    private final UpstreamClient client;
    private final UpstreamBulk bulk;
    private final Permits permits;
    private final BooleanSupplier running;
    private final Retry retry;
    private final CircuitBreaker breaker;
    private final BreakerWait breakerWait;
    private final AtomicInteger waiting = new AtomicInteger();

    /** @param bulk upstream's bulk requests, or null when it answers single pulls only */
    ResilientUpstream(
            UpstreamSettings settings,
            UpstreamClient client,
            UpstreamBulk bulk,
            Permits permits,
            BooleanSupplier running) {
        this.client = client;
        this.bulk = bulk;
        this.permits = permits;
        this.running = running;
        Duration circuitOpen = settings.circuitOpen();
        Duration backoff = firstBackoff(settings);
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
                        .ignoreException(e -> e instanceof InterruptedException
                                || e instanceof CancellationException
                                || (e instanceof UpstreamUnavailable && client.answeredWithin(circuitOpen)))
                        .build());
        this.breakerWait = new BreakerWait(breaker);
    }

    /** The waits between the tries of a held final pull: growing from retry-backoff up to circuit-open. */
    static IntervalFunction holdBackoff(UpstreamSettings settings) {
        Duration backoff = firstBackoff(settings);
        Duration longest = settings.circuitOpen().compareTo(backoff) < 0 ? backoff : settings.circuitOpen();
        return IntervalFunction.ofExponentialRandomBackoff(backoff, 2.0, JITTER, longest);
    }

    /** resilience4j refuses intervals under 1 ms, and retry-backoff=0 is a valid setting. */
    private static Duration firstBackoff(UpstreamSettings settings) {
        return settings.retryBackoff().compareTo(SMALLEST_BACKOFF) < 0 ? SMALLEST_BACKOFF : settings.retryBackoff();
    }

    /** @throws CancellationException when the puller closes before the pull is done */
    PullOutcome pull(String orderId) throws InterruptedException {
        return untilAnswered(
                attempts -> request(orderId, attempts), PullOutcome::unanswered, "pull of order " + orderId);
    }

    /**
     * Asks for several orders in one request, retried as a whole while upstream does not answer, and waiting like a
     * pull while the circuit is open.
     *
     * @param orderIds distinct, at most {@link #mostInOneRequest()}
     * @return what upstream answered; unanswered after {@code max-attempts}, or refused as a whole
     * @throws CancellationException when the puller closes before the request is done
     */
    UpstreamBulk.Reply pullBulk(List<String> orderIds) throws InterruptedException {
        if (bulk == null) {
            throw new IllegalStateException("upstream has no bulk requests (upstream.bulk-path is empty)");
        }
        return untilAnswered(
                attempts -> {
                    permits.acquire(orderIds.size());
                    attempts.count++;
                    return bulk.fetch(orderIds);
                },
                UpstreamBulk.Reply::unanswered,
                "bulk request for " + orderIds.size() + " orders");
    }

    /** One request to upstream, counted in {@code attempts}. */
    @FunctionalInterface
    private interface Attempt<T> {
        T call(Attempts attempts) throws UpstreamUnavailable, InterruptedException;
    }

    /**
     * The way every request goes: retried while upstream does not answer, waiting while the circuit is open.
     *
     * @param unanswered the answer when upstream did not answer {@code max-attempts} times, given why
     * @param what       the request, for messages
     */
    private <T> T untilAnswered(Attempt<T> attempt, Function<String, T> unanswered, String what)
            throws InterruptedException {
        Attempts attempts = new Attempts();
        while (true) {
            long mark = breakerWait.mark();
            try {
                return Retry.decorateCallable(
                                retry, CircuitBreaker.decorateCallable(breaker, () -> attempt.call(attempts)))
                        .call();
            } catch (CallNotPermittedException e) {
                waitFor(() -> breakerWait.awaitChangeSince(mark, running));
            } catch (UpstreamUnavailable e) {
                return unanswered.apply(e.getMessage() + " after " + attempts.describe());
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                // the request throws nothing else; Callable only makes the compiler think so
                throw new IllegalStateException("unexpected failure of the " + what, e);
            }
            if (!running.getAsBoolean()) {
                throw new CancellationException("puller closing: " + what + " abandoned");
            }
        }
    }

    /** The most orders one request may ask for: the rate limit's permits in a second. */
    int mostInOneRequest() {
        return permits.most();
    }

    /**
     * One more try of a held final pull ({@link FinalAttemptHold} waits between tries). It asks only while the circuit
     * is closed, so that an outage is not hammered by held pulls, and the circuit records it neither way: an order
     * upstream keeps failing would otherwise open the circuit for every other order.
     */
    PullOutcome tryHeldAgain(String orderId) throws InterruptedException {
        CircuitBreaker.State state = breaker.getState();
        if (state != CircuitBreaker.State.CLOSED) {
            return PullOutcome.unanswered(
                    "held: the circuit breaker is " + state.name().toLowerCase(Locale.ROOT));
        }
        Attempts attempts = new Attempts();
        try {
            return request(orderId, attempts);
        } catch (UpstreamUnavailable e) {
            return PullOutcome.unanswered(e.getMessage() + " (held final pull)");
        }
    }

    private PullOutcome request(String orderId, Attempts attempts) throws UpstreamUnavailable, InterruptedException {
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

    CircuitBreaker breaker() {
        return breaker;
    }

    /** Pulls waiting for upstream now: refused by the open circuit. */
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
