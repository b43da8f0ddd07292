package io.lapse.bench.puller;

import java.time.Duration;
import java.util.List;

/**
 * What the puller benchmark runs.
 *
 * @param rateLimits        upstream.rate-limit of each sustained-rate run
 * @param latency           the simulated upstream's latency for every request
 * @param runLength         how long each sustained-rate run would last at its rate limit
 * @param silentOrders      orders silent through the outage of the recovery run; 0 skips it
 * @param outage            how long upstream answers 503 in the recovery run
 * @param recoveryRateLimit upstream.rate-limit of the recovery run
 */
public record PullerBenchOptions(
        List<Integer> rateLimits,
        Duration latency,
        Duration runLength,
        int silentOrders,
        Duration outage,
        int recoveryRateLimit) {

    public PullerBenchOptions {
        rateLimits = List.copyOf(rateLimits);
        if (rateLimits.stream().anyMatch(rate -> rate < 1)) {
            throw new IllegalArgumentException("every rate limit must be at least 1, got " + rateLimits);
        }
        if (latency.isNegative() || runLength.toSeconds() < 1 || outage.isNegative()) {
            throw new IllegalArgumentException("latency and outage must not be negative and runs last at least 1 s");
        }
        if (silentOrders < 0 || recoveryRateLimit < 1) {
            throw new IllegalArgumentException("silent orders must not be negative and the rate limit at least 1");
        }
    }

    /** Rates 200 (the default), 500 and 1,000/s for 20 s each at 50 ms; 10,000 orders through a 60 s outage at 500/s. */
    public static PullerBenchOptions defaults() {
        return new PullerBenchOptions(
                List.of(200, 500, 1_000),
                Duration.ofMillis(50),
                Duration.ofSeconds(20),
                10_000,
                Duration.ofSeconds(60),
                500);
    }

    int concurrencyFor(int rateLimit) {
        return PullThreads.forRate(rateLimit, latency);
    }
}
