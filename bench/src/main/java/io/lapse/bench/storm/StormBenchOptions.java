package io.lapse.bench.storm;

import io.lapse.bench.puller.PullThreads;
import io.lapse.config.FleetSettings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the storm benchmark runs: a fleet that pushes every push interval falls silent at once for {@code silence},
 * with upstream still answering pulls, then speaks again.
 *
 * @param orders       simulated orders, all watched before the silence and all silent through it
 * @param pushInterval how often each order pushes while it pushes
 * @param ttl          timer.ttl (and timer.repeat, its default)
 * @param silence      how long every push stops
 * @param rateLimit    upstream.rate-limit; low enough that the silent fleet makes a backlog
 * @param latency      the simulated upstream's latency for every pull
 * @param plot         where the PNG of the backlog and the drain is written (a CSV of the samples goes beside it)
 */
public record StormBenchOptions(
        int orders, Duration pushInterval, Duration ttl, Duration silence, int rateLimit, Duration latency, Path plot) {

    /** A backlog forms when the fleet needs more pulls per ttl than this share of it allows. */
    private static final int TTLS_PER_ROUND_OF_PULLS = 3;

    public StormBenchOptions {
        if (orders < 1 || rateLimit < 1) {
            throw new IllegalArgumentException(
                    "orders and the rate limit must be at least 1, got " + orders + " and " + rateLimit);
        }
        if (pushInterval.toMillis() < 100 || ttl.compareTo(pushInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("the push interval must be at least 100ms and the ttl at least twice it,"
                    + " or the orders would expire while they push; got " + pushInterval + " and " + ttl);
        }
        if (silence.compareTo(ttl.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException(
                    "the silence must last at least twice the ttl, so that every order expires in it; got " + silence);
        }
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative, got " + latency);
        }
        if (plot == null) {
            throw new IllegalArgumentException("the plot needs a path");
        }
    }

    /** Production's timing: pushes every 15 s, ttl 90 s, 3 minutes of silence; 20,000 orders (about 9 minutes). */
    public static StormBenchOptions full() {
        return of(20_000, Duration.ofSeconds(15), Duration.ofSeconds(90), Duration.ofMinutes(3));
    }

    /** The same storm at a 2 s push interval and a 6 s ttl, 60 s silent; 5,000 orders (about 2.5 minutes). */
    public static StormBenchOptions fast() {
        return of(5_000, Duration.ofSeconds(2), Duration.ofSeconds(6), Duration.ofSeconds(60));
    }

    /** The rate limit that pulls each order once per three ttl: the backlog of a silent fleet drains in 3 ttl. */
    public static int backlogRateLimit(int orders, Duration ttl) {
        return (int) Math.max(1, orders * 1000L / (TTLS_PER_ROUND_OF_PULLS * ttl.toMillis()));
    }

    private static StormBenchOptions of(int orders, Duration pushInterval, Duration ttl, Duration silence) {
        return new StormBenchOptions(
                orders,
                pushInterval,
                ttl,
                silence,
                backlogRateLimit(orders, ttl),
                Duration.ofMillis(10),
                Path.of("target", "storm.png"));
    }

    public StormBenchOptions withOrders(int n) {
        return new StormBenchOptions(n, pushInterval, ttl, silence, backlogRateLimit(n, ttl), latency, plot);
    }

    public StormBenchOptions withSilence(Duration d) {
        return new StormBenchOptions(orders, pushInterval, ttl, d, rateLimit, latency, plot);
    }

    public StormBenchOptions withRateLimit(int rate) {
        return new StormBenchOptions(orders, pushInterval, ttl, silence, rate, latency, plot);
    }

    public StormBenchOptions withPlot(Path path) {
        return new StormBenchOptions(orders, pushInterval, ttl, silence, rateLimit, latency, path);
    }

    /** fleet.window: twice the push interval, as its documentation asks. */
    public Duration fleetWindow() {
        return pushInterval.multipliedBy(2);
    }

    /**
     * fleet.baseline: ten push intervals, so that the baseline is established in a short warm-up, or the shortest the
     * window allows when that is longer.
     */
    public Duration fleetBaseline() {
        Duration tenPushes = pushInterval.multipliedBy(10);
        Duration least = FleetSettings.leastBaseline(fleetWindow());
        return tenPushes.compareTo(least) >= 0 ? tenPushes : least;
    }

    int concurrency() {
        return PullThreads.forRate(rateLimit, latency);
    }
}
