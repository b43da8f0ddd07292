package io.lapse.puller.asking;

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
 *
 * <p>The rate counts orders: a bulk request for k orders takes k permits, the next k slots, and starts once the k-th
 * oldest of the last {@code rate} starts is a second old; so no more than {@code rate} orders are asked for within any
 * second, whether alone or together.
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
        acquire(1);
    }

    /**
     * The permits of a request for {@code orders} orders, at most the rate.
     *
     * @throws CancellationException when the puller closes meanwhile (the reserved slots go unused)
     */
    void acquire(int orders) throws InterruptedException {
        if (orders < 1 || orders > starts.length) {
            throw new IllegalArgumentException("a request takes 1 to " + starts.length + " permits, not " + orders);
        }
        long began = System.nanoTime();
        long slot = began;
        for (int i = 0; i < orders; i++) {
            long wait = limiter.reservePermission();
            if (wait < 0) {
                throw new IllegalStateException("no request permit free within " + RESERVE_AHEAD.toDays() + " day");
            }
            slot = Math.max(slot, System.nanoTime() + wait);
        }
        for (long left = slot - System.nanoTime(); left > 0; left = slot - System.nanoTime()) {
            nap(left);
        }
        for (long left = claimStarts(orders); left > 0; left = claimStarts(orders)) {
            nap(left);
        }
        waits.record(Duration.ofNanos(System.nanoTime() - began));
    }

    /**
     * Starts {@code orders} now if the {@code orders}-th oldest of the last {@code rate} starts is a second old (the
     * starts are kept in the order they were claimed, so then all the older ones are too); else says how long to wait.
     */
    private synchronized long claimStarts(int orders) {
        long now = System.nanoTime();
        long free = starts[(oldest + orders - 1) % starts.length] + SECOND - now;
        if (free > 0) {
            return free;
        }
        for (int i = 0; i < orders; i++) {
            starts[oldest] = now;
            oldest = (oldest + 1) % starts.length;
        }
        return 0;
    }

    /** The most permits one request may take: the rate. */
    int most() {
        return starts.length;
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
