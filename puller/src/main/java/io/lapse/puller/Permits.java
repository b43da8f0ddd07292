package io.lapse.puller;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Request permits at {@code upstream.rate-limit}: one every 1/rate seconds rather than a batch each second, so that
 * upstream never sees more than the rate within any second, not even across the turn of one. A request waits for its
 * permit as long as it takes; the wait is timed.
 */
final class Permits {

    private static final Duration WAIT_SLICE = Duration.ofSeconds(1);

    private final RateLimiter limiter;
    private final Timer waits;
    private final BooleanSupplier running;

    Permits(int ratePerSecond, Timer waits, BooleanSupplier running) {
        this.limiter = RateLimiter.of("upstream", RateLimiterConfig.custom().limitForPeriod(1)
                .limitRefreshPeriod(Duration.ofNanos(1_000_000_000L / ratePerSecond)).timeoutDuration(WAIT_SLICE)
                .build());
        this.waits = waits;
        this.running = running;
    }

    /** @throws CancellationException when the puller closes meanwhile */
    void acquire() throws InterruptedException {
        long started = System.nanoTime();
        // waits in slices, so that a closing puller is noticed
        while (!limiter.acquirePermission()) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted waiting for a request permit");
            }
            if (!running.getAsBoolean()) {
                throw new CancellationException("puller closing while a request waited for its permit");
            }
        }
        waits.record(Duration.ofNanos(System.nanoTime() - started));
    }
}
