package io.lapse.puller;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Request permits at {@code upstream.rate-limit}: one every 1/rate seconds rather than a batch each second, so that
 * upstream never sees more than the rate within any second, not even across the turn of one. A request reserves the
 * next free slot and waits for it, however far ahead; the wait is timed.
 */
final class Permits {

    /** Reserving never fails: a slow rate with many requests waiting may put a slot far ahead. */
    private static final Duration RESERVE_AHEAD = Duration.ofDays(1);
    /** Bounds each nap, so that a closing puller is noticed. */
    private static final long NAP_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final RateLimiter limiter;
    private final Timer waits;
    private final BooleanSupplier running;

    Permits(int ratePerSecond, Timer waits, BooleanSupplier running) {
        this.limiter = RateLimiter.of("upstream", RateLimiterConfig.custom().limitForPeriod(1)
                .limitRefreshPeriod(Duration.ofNanos(TimeUnit.SECONDS.toNanos(1) / ratePerSecond))
                .timeoutDuration(RESERVE_AHEAD).build());
        this.waits = waits;
        this.running = running;
    }

    /** @throws CancellationException when the puller closes meanwhile (the reserved slot goes unused) */
    void acquire() throws InterruptedException {
        long started = System.nanoTime();
        long wait = limiter.reservePermission();
        if (wait < 0) {
            throw new IllegalStateException("no request permit free within " + RESERVE_AHEAD.toDays() + " day");
        }
        for (long left = started + wait - System.nanoTime(); left > 0; left = started + wait - System.nanoTime()) {
            if (!running.getAsBoolean()) {
                throw new CancellationException("puller closing while a request waited for its permit");
            }
            LockSupport.parkNanos(Math.min(left, NAP_NANOS));
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted waiting for a request permit");
            }
        }
        waits.record(Duration.ofNanos(System.nanoTime() - started));
    }
}
