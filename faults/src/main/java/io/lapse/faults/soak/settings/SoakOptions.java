package io.lapse.faults.soak.settings;

import io.lapse.bench.storm.StormBenchOptions;
import io.lapse.config.ConfigKeys;
import io.lapse.config.Durations;
import io.lapse.faults.soak.judge.FleetEventsVerdict;
import io.lapse.faults.soak.load.CohortPlan;
import io.lapse.faults.soak.load.CohortSizes;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One soak's settings.
 *
 * @param orders       active orders, each pushing every {@code pushInterval}
 * @param duration     how long the load runs, from the moment every service is ready
 * @param ttl          timer.ttl (and timer.repeat)
 * @param silent       share of the orders that go silent for good during the run
 * @param sessionMin   shortest charging session
 * @param sessionMax   longest charging session
 * @param partitions   of every topic
 * @param out          where the run writes its folder (named after the run) of CSV, plots and logs
 * @param fault        what to break amid the silent orders' deadlines ({@link #faultAt()}); null for none
 * @param storm        how long every push stops under {@link SoakFault#FLEET_SILENCE}, from {@link #stormAt()}
 * @param rateLimit    the puller's upstream.rate-limit, pulls per second
 * @param serviceHeapMegabytes the -Xmx of every service process
 * @param profile      whether every service records a CPU profile (JFR), summed up after the run
 * @param bulkSize     the puller's upstream.bulk-size, the load's simulated upstream serving bulk requests; 0 for
 *                     single pulls only
 * @param scanInterval the compensator's compensator.scan-interval: its push folder hands each order's pushes to the
 *                     mirror once per interval, so the mirror's work per order follows it
 * @param cohorts      operators of {@link CohortSizes#zipf long-tail sizes}, each push naming its order's in the field
 *                     {@code fleet.cohort-field} is set to, and every fleet and cohort event judged
 *                     ({@link FleetEventsVerdict}); 0 for none. {@link SoakFault#COHORT_SILENCE} silences the one
 *                     whose size is nearest {@code silent} of the fleet in place of that share of single orders
 * @param churn        whether, beside the sessions and the silent share, a share {@link #CHURN_MISS_SHARE} of the
 *                     orders misses a push each round (a quarter of them two)
 */
public record SoakOptions(
        int orders,
        Duration duration,
        Duration pushInterval,
        Duration ttl,
        double silent,
        Duration sessionMin,
        Duration sessionMax,
        int partitions,
        Path out,
        SoakFault fault,
        Duration storm,
        int rateLimit,
        int serviceHeapMegabytes,
        boolean profile,
        int bulkSize,
        Duration scanInterval,
        int cohorts,
        boolean churn) {

    /** With {@code churn}, the share of the pushing orders that misses its next push, each round. */
    public static final double CHURN_MISS_SHARE = 0.01;

    /** The load's simulated upstream serves bulk requests here when {@code bulkSize} asks for them. */
    public static final String BULK_PATH = "/orders/statuses";

    /** A silent order must fire within this long after its deadline, or it is missed. */
    public static final Duration GRACE = Duration.ofSeconds(10);

    public SoakOptions {
        if (orders < 1 || partitions < 1) {
            throw new IllegalArgumentException("orders and partitions must be at least 1");
        }
        if (ttl.compareTo(pushInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException(
                    "a ttl of " + ttl + " would expire orders that push every " + pushInterval);
        }
        if (duration.compareTo(ttl.plus(GRACE).plus(pushInterval.multipliedBy(2))) < 0) {
            throw new IllegalArgumentException("a soak of " + duration + " is too short for a silent order to fire"
                    + " and be judged (ttl + 10 s + two push intervals)");
        }
        if (silent < 0 || silent > 1) {
            throw new IllegalArgumentException("--silent is a share from 0 to 1, got " + silent);
        }
        if (serviceHeapMegabytes < 64) {
            throw new IllegalArgumentException("a service needs a heap of at least 64 MB, got " + serviceHeapMegabytes);
        }
        if (rateLimit < 1) {
            throw new IllegalArgumentException("the rate limit must be at least 1 pull per second, got " + rateLimit);
        }
        if (bulkSize < 0 || bulkSize == 1) {
            throw new IllegalArgumentException(
                    "a bulk asks for at least 2 orders (0: single pulls only), not " + bulkSize);
        }
        if (scanInterval.isNegative() || scanInterval.isZero()) {
            throw new IllegalArgumentException("the scan interval must be positive, got " + scanInterval);
        }
        if (cohorts < 0 || cohorts > orders) {
            throw new IllegalArgumentException("--cohorts from 0 to the orders, got " + cohorts);
        }
        if (fault == SoakFault.COHORT_SILENCE) {
            if (cohorts == 0) {
                throw new IllegalArgumentException("--fault cohort-silence needs --cohorts");
            }
            StormBenchOptions bench =
                    new StormBenchOptions(orders, pushInterval, ttl, storm, rateLimit, Duration.ZERO, out);
            Duration resumed = cohortSilenceAt(bench).plus(cohortSilenceFor(ttl, pushInterval));
            Duration judged = resumed.plus(bench.fleetWindow().multipliedBy(FleetEventsVerdict.WINDOWS));
            if (duration.compareTo(judged) < 0) {
                throw new IllegalArgumentException("a soak of " + duration + " ends before the cohort's silence can be"
                        + " judged: it begins at " + cohortSilenceAt(bench) + ", its orders push again "
                        + resumed + " in, and the end is told within " + FleetEventsVerdict.WINDOWS + " fleet.window");
            }
        }
        if (fault == SoakFault.FLEET_SILENCE) {
            // the storm benchmark's own checks too: a silence of at least two ttl
            Duration stormAt =
                    stormAt(new StormBenchOptions(orders, pushInterval, ttl, storm, rateLimit, Duration.ZERO, out));
            if (duration.compareTo(stormAt.plus(storm)) < 0) {
                throw new IllegalArgumentException("a soak of " + duration + " ends before the pushes resume: the"
                        + " storm starts at " + stormAt + " (fleet.window + fleet.baseline) and lasts " + storm);
            }
        }
    }

    /** The workload: 1 M orders pushing every 15 s, ttl 90 s, 1 % silent, sessions of 30 to 90 minutes. */
    public static SoakOptions defaults() {
        return new SoakOptions(
                1_000_000,
                Duration.ofMinutes(10),
                Duration.ofSeconds(15),
                Duration.ofSeconds(90),
                0.01,
                Duration.ofMinutes(30),
                Duration.ofMinutes(90),
                6,
                Path.of("target", "soak"),
                null,
                Duration.ofMinutes(3),
                Integer.parseInt(ConfigKeys.UPSTREAM_RATE_LIMIT.defaultValue()),
                1024,
                false,
                0,
                Durations.parse(ConfigKeys.COMPENSATOR_SCAN_INTERVAL.defaultValue()),
                0,
                false);
    }

    public SoakOptions withOrders(int n) {
        return new SoakOptions(
                n,
                duration,
                pushInterval,
                ttl,
                silent,
                sessionMin,
                sessionMax,
                partitions,
                out,
                fault,
                storm,
                rateLimit,
                serviceHeapMegabytes,
                profile,
                bulkSize,
                scanInterval,
                cohorts,
                churn);
    }

    /**
     * The storm as the storm benchmark describes one, whose goals and fleet-silence settings the soak's storm shares:
     * all {@code orders} silent for {@code storm}, pulled at {@code rateLimit}, upstream answering at once.
     */
    public StormBenchOptions stormBench(Path plot) {
        return new StormBenchOptions(orders, pushInterval, ttl, storm, rateLimit, Duration.ZERO, plot);
    }

    /**
     * When every push stops, after the start: once the fleet-silence detector has seen a whole window and baseline
     * of pushes, since before it a silence could not be told from a quiet fleet.
     */
    public Duration stormAt() {
        return stormAt(stormBench(out));
    }

    private static Duration stormAt(StormBenchOptions storm) {
        return storm.fleetWindow().plus(storm.fleetBaseline());
    }

    /** When silences begin: after the pipeline has run a while (two ttl), or a quarter into a short run. */
    public Duration silenceFrom() {
        Duration twoTtl = ttl.multipliedBy(2);
        Duration quarter = duration.dividedBy(4);
        return twoTtl.compareTo(quarter) < 0 ? twoTtl : quarter;
    }

    /**
     * When the last silence begins: late enough that its order can still be judged before the end, and before a
     * storm's last round of pushes, since an order silenced once the storm stopped its pushes would be judged by its
     * last push before the storm, whose deadline has long passed.
     */
    public Duration silenceUntil() {
        Duration last = duration.minus(ttl).minus(GRACE).minus(pushInterval);
        if (fault == SoakFault.FLEET_SILENCE && last.compareTo(stormAt().minus(pushInterval)) > 0) {
            last = stormAt().minus(pushInterval);
        }
        return last.compareTo(silenceFrom()) > 0 ? last : silenceFrom();
    }

    /**
     * When a fault strikes: amid the silent orders' deadlines (the middle of the silences plus a ttl), where it costs
     * the most, since a fault that no deadline meets would show nothing of the firing.
     */
    public Duration faultAt() {
        return silenceFrom().plus(silenceUntil()).dividedBy(2).plus(ttl);
    }

    /**
     * When the cohort goes silent: once ingest has judged the cohorts (a fleet.window and a baseline after their first
     * pushes, as the storm waits for the fleet's) and two windows more, for the load's start.
     */
    Duration cohortSilenceAt() {
        return cohortSilenceAt(stormBench(out));
    }

    private static Duration cohortSilenceAt(StormBenchOptions bench) {
        return stormAt(bench).plus(bench.fleetWindow().multipliedBy(2));
    }

    /** How long the cohort is silent: until each of its orders has fired and been judged (ttl, grace, two pushes). */
    Duration cohortSilenceFor() {
        return cohortSilenceFor(ttl, pushInterval);
    }

    private static Duration cohortSilenceFor(Duration ttl, Duration pushInterval) {
        return ttl.plus(GRACE).plus(pushInterval.multipliedBy(2));
    }

    /**
     * Whether the services get the storm's fleet.window and fleet.baseline: with cohorts too, since the default
     * baseline (10 minutes) would judge no cohort within a soak of 10.
     */
    public boolean shortFleetBaseline() {
        return fault == SoakFault.FLEET_SILENCE || cohorts > 0;
    }

    /** The cohorts as the load plans them. */
    public CohortPlan cohortPlan() {
        if (cohorts == 0) {
            return CohortPlan.NONE;
        }
        return fault == SoakFault.COHORT_SILENCE
                ? new CohortPlan(cohorts, silent, cohortSilenceAt(), cohortSilenceFor())
                : new CohortPlan(cohorts, 0, Duration.ZERO, Duration.ZERO);
    }

    /** The share of single orders silenced for good: none when a cohort goes silent in their place. */
    public double silentOrders() {
        return fault == SoakFault.COHORT_SILENCE ? 0 : silent;
    }

    /** Pushes per second asked of the generator. */
    double targetPushesPerSecond() {
        return orders / (pushInterval.toMillis() / 1000.0);
    }
}
