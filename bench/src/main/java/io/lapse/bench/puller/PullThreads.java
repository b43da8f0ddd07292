package io.lapse.bench.puller;

import java.time.Duration;

/**
 * How many pulls a benchmark lets one puller have in flight ({@code upstream.concurrency}) for a rate limit, so that
 * the limit, not the threads, sets the pace: three times what the rate needs, since a busy machine can double the time
 * of a pull, and never fewer than the default 16. A pull takes the upstream's answer and Lapse's own part besides
 * (reading the order's state, publishing the result): the 250,000-order storm soak of 2026-11-26 drained 330 pulls/s
 * with 16 threads from an upstream that answered at once, about 50 ms a pull.
 */
public final class PullThreads {

    static final Duration LAPSE_PER_PULL = Duration.ofMillis(50);
    private static final int AT_LEAST = 16;
    private static final int HEADROOM = 3;

    private PullThreads() {}

    /** @param upstreamLatency how long the upstream takes to answer one request */
    public static int forRate(int rateLimit, Duration upstreamLatency) {
        double seconds = upstreamLatency.plus(LAPSE_PER_PULL).toNanos() / 1e9;
        return Math.max(AT_LEAST, (int) Math.ceil(rateLimit * seconds * HEADROOM));
    }
}
