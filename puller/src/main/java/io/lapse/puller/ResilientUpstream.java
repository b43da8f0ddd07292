package io.lapse.puller;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RequestNotPermitted;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.lapse.config.Durations;
import io.lapse.config.UpstreamSettings;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Pulls through Retry( CircuitBreaker( RateLimiter( request ))): every attempt waits for a rate permit, only
 * retryable failures count against the circuit, and an open circuit ends a pull at once instead of retrying.
 * Always answers with an outcome; only interruption (the puller closing) escapes.
 */
final class ResilientUpstream {

    private static final Duration PERMIT_WAIT = Duration.ofMinutes(1);

    private final UpstreamClient client;
    private final UpstreamSettings settings;
    private final Retry retry;
    private final CircuitBreaker breaker;
    private final RateLimiter limiter;

    ResilientUpstream(UpstreamSettings settings, UpstreamClient client) {
        this.client = client;
        this.settings = settings;
        // resilience4j refuses intervals under 1 ms, and retry-backoff=0 is a valid setting
        Duration backoff = settings.retryBackoff().compareTo(Duration.ofMillis(1)) < 0
                ? Duration.ofMillis(1) : settings.retryBackoff();
        this.retry = Retry.of("upstream", RetryConfig.custom().maxAttempts(settings.maxAttempts())
                .intervalFunction(IntervalFunction.ofExponentialBackoff(backoff, 2.0))
                .retryOnException(e -> e instanceof UpstreamUnavailable).build());
        this.breaker = CircuitBreaker.of("upstream", CircuitBreakerConfig.custom()
                .slidingWindowSize(20).minimumNumberOfCalls(10).failureRateThreshold(50)
                .waitDurationInOpenState(settings.circuitOpen()).permittedNumberOfCallsInHalfOpenState(3)
                .recordException(e -> e instanceof UpstreamUnavailable)
                .ignoreException(e -> e instanceof InterruptedException || e instanceof RequestNotPermitted)
                .build());
        this.limiter = RateLimiter.of("upstream", RateLimiterConfig.custom()
                .limitForPeriod(settings.rateLimit()).limitRefreshPeriod(Duration.ofSeconds(1))
                .timeoutDuration(PERMIT_WAIT).build());
    }

    PullOutcome pull(String orderId) throws InterruptedException {
        Attempts attempts = new Attempts();
        Callable<PullOutcome> request = () -> {
            attempts.count++;
            try {
                return client.fetch(orderId);
            } catch (UpstreamUnavailable e) {
                attempts.lastFailure = e.getMessage();
                throw e;
            }
        };
        try {
            return Retry.decorateCallable(retry, CircuitBreaker.decorateCallable(breaker,
                    RateLimiter.decorateCallable(limiter, request))).call();
        } catch (UpstreamUnavailable e) {
            return PullOutcome.failed(e.getMessage() + " after " + attempts.describe());
        } catch (CallNotPermittedException e) {
            return PullOutcome.failed("circuit breaker open: upstream failed too often, pulls fail fast for up to "
                    + Durations.format(settings.circuitOpen())
                    + (attempts.count == 0 ? "" : " (before: " + attempts.lastFailure + " after " + attempts.describe() + ")"));
        } catch (RequestNotPermitted e) {
            return PullOutcome.failed("no request permit within " + Durations.format(PERMIT_WAIT) + " at the rate limit of "
                    + settings.rateLimit() + "/s");
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // the request throws nothing else; Callable only makes the compiler think so
            throw new IllegalStateException("unexpected failure pulling " + orderId, e);
        }
    }

    boolean isCircuitOpen() {
        return breaker.getState() == CircuitBreaker.State.OPEN;
    }

    /** Requests made by one pull; it runs on one thread, so plain fields do. */
    private static final class Attempts {
        int count;
        String lastFailure;

        String describe() {
            return count + (count == 1 ? " attempt" : " attempts");
        }
    }
}
