package io.lapse.bench.puller;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the puller benchmark runs.
 *
 * @param rateLimits        upstream.rate-limit of each sustained-rate run
 * @param latency           the simulated upstream's latency for every request
 * @param runLength         how long each sustained-rate run would last at its rate limit
 * @param silentOrders      orders silent through the outage of the recovery run; 0 skips it
 * @param outage            how long upstream answers 503 in the recovery run
 * @param recoveryRateLimit upstream.rate-limit of the recovery run
 * @param bulkSize          upstream.bulk-size with the simulator's bulk path on; 0 for single pulls only
 */
public record PullerBenchOptions(
        List<Integer> rateLimits,
        Duration latency,
        Duration runLength,
        int silentOrders,
        Duration outage,
        int recoveryRateLimit,
        int bulkSize) {

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
        if (bulkSize == 1 || bulkSize < 0) {
            throw new IllegalArgumentException(
                    "a bulk asks for at least 2 orders (0: single pulls only), not " + bulkSize);
        }
    }

    /**
     * Rates 200 (the default), 500 and 1,000/s for 20 s each at 50 ms; 10,000 orders through a 60 s outage at 500/s;
     * single pulls only.
     */
    public static PullerBenchOptions defaults() {
        return new PullerBenchOptions(
                List.of(200, 500, 1_000),
                Duration.ofMillis(50),
                Duration.ofSeconds(20),
                10_000,
                Duration.ofSeconds(60),
                500,
                0);
    }

    /**
     * The puller's settings of a run: its rate limit and pull threads, and the bulk requests when asked for.
     */
    Map<String, String> pullerSettings(int rateLimit) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("upstream.rate-limit", Integer.toString(rateLimit));
        settings.put("upstream.concurrency", Integer.toString(concurrencyFor(rateLimit)));
        if (bulkSize > 0) {
            settings.put("upstream.bulk-path", BULK_PATH);
            settings.put("upstream.bulk-size", Integer.toString(bulkSize));
        }
        return settings;
    }

    /** The simulated upstream's bulk path, served when the runs ask for bulk requests. */
    static final String BULK_PATH = "/orders/statuses";

    int concurrencyFor(int rateLimit) {
        return PullThreads.forRate(rateLimit, latency);
    }
}
