package io.lapse.puller;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Request permits at {@code upstream.rate-limit}. The rate limiter hands out one slot every 1/rate seconds rather
 * than a batch each second, so requests are spread evenly; a request reserves the next free slot and waits for it.
 * Slots alone would let a busy machine, waking several late requests at once, put more than the rate into one second,
 * so a request also starts only once the request {@code rate} starts before it is a second old. The wait is timed.
 */
final class Permits {

    /** Reserving never fails: a slow rate with many requests waiting may put a slot far ahead. */
    private static final Duration RESERVE_AHEAD = Duration.ofDays(1);
    /** Bounds each nap, so that a closing puller is noticed. */
    private static final long NAP_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final RateLimiter limiter;
    private final Timer waits;
    private final BooleanSupplier running;
    /** Start times of the last {@code rate} requests, oldest at {@code oldest}. */
    private final long[] starts;

    private int oldest;

    Permits(int ratePerSecond, Timer waits, BooleanSupplier running) {
        this.limiter = RateLimiter.of(
                "upstream",
                RateLimiterConfig.custom()
                        .limitForPeriod(1)
                        .limitRefreshPeriod(Duration.ofNanos(SECOND / ratePerSecond))
                        .timeoutDuration(RESERVE_AHEAD)
                        .build());
        this.waits = waits;
        this.running = running;
        this.starts = new long[ratePerSecond];
        Arrays.fill(starts, System.nanoTime() - SECOND);
    }

    /** @throws CancellationException when the puller closes meanwhile (the reserved slot goes unused) */
    void acquire() throws InterruptedException {
        long began = System.nanoTime();
        long wait = limiter.reservePermission();
        if (wait < 0) {
            throw new IllegalStateException("no request permit free within " + RESERVE_AHEAD.toDays() + " day");
        }
        long slot = began + wait;
        for (long left = slot - System.nanoTime(); left > 0; left = slot - System.nanoTime()) {
            nap(left);
        }
        for (long left = claimStart(); left > 0; left = claimStart()) {
            nap(left);
        }
        waits.record(Duration.ofNanos(System.nanoTime() - began));
    }

    /** Starts a request now if the one {@code rate} starts ago is a second old; else says how long to wait. */
    private synchronized long claimStart() {
        long now = System.nanoTime();
        long free = starts[oldest] + SECOND - now;
        if (free > 0) {
            return free;
        }
        starts[oldest] = now;
        oldest = (oldest + 1) % starts.length;
        return 0;
    }

    private void nap(long nanos) throws InterruptedException {
        if (!running.getAsBoolean()) {
            throw new CancellationException("puller closing while a request waited for its permit");
        }
        LockSupport.parkNanos(Math.min(nanos, NAP_NANOS));
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted waiting for a request permit");
        }
    }
}
