package io.lapse.faults.scenario;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.faults.fault.BrokerDown;
import io.lapse.faults.fault.CohortChurn;
import io.lapse.faults.fault.CohortSilence;
import io.lapse.faults.fault.CredentialsRefused;
import io.lapse.faults.fault.FastClockDuringFreeze;
import io.lapse.faults.fault.FaultReport;
import io.lapse.faults.fault.FleetWideSilence;
import io.lapse.faults.fault.FleetWideSilence.Storm;
import io.lapse.faults.fault.Freeze;
import io.lapse.faults.fault.KillAndRestart;
import io.lapse.faults.fault.KillOneOfTwo;
import io.lapse.faults.fault.PartitionsAdded;
import io.lapse.faults.fault.PoisonRecords;
import io.lapse.faults.fault.PullerRollingRestart;
import io.lapse.faults.fault.RedisLoss;
import io.lapse.faults.fault.RefusedOrders;
import io.lapse.faults.fault.RestartAcrossDeadlines;
import io.lapse.faults.fault.RollingRestart;
import io.lapse.faults.fault.SlowUpstream;
import io.lapse.faults.fault.UpstreamOutage;
import io.lapse.faults.lab.Role;
import io.lapse.faults.settings.SuiteSettings;
import io.lapse.faults.workload.CohortOrders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Every scenario of the suite, in the order it runs them, and how a command line selects some. */
final class Scenarios {

    /** As the issue had it: a supervisor restarting a killed process after two seconds. */
    private static final Duration RESTART_AFTER = Duration.ofSeconds(2);

    /** Issue 40's bounds: a restarted timer fires what is due within 3 s of its start, */
    private static final Duration RESTARTED_TIMER_FIRES_WITHIN = Duration.ofSeconds(3);
    /** when it was killed this long before the deadlines and started again at them; */
    private static final Duration KILLED_BEFORE_DEADLINES = Duration.ofSeconds(2);
    /** a rolling restart, each service this far apart, */
    private static final Duration ROLL_APART = Duration.ofSeconds(3);
    /** delays nothing by more than a second; */
    private static final Duration ROLLING_DELAYS_AT_MOST = Duration.ofSeconds(1);
    /** and a dead instance's work is served again within its session timeout and this. */
    private static final Duration SESSION_ENDED_SERVED_WITHIN = Duration.ofSeconds(2);

    private static final Duration SECOND_INSTANCES_START = Duration.ofSeconds(180);
    private static final Duration BROKER_DOWN = Duration.ofSeconds(30);
    private static final Duration UPSTREAM_ERRORS = Duration.ofSeconds(30);
    private static final Duration UPSTREAM_STALL = Duration.ofSeconds(10);
    private static final Duration POISON = Duration.ofSeconds(10);
    private static final Duration STORM_NOTICED_WITHIN = Duration.ofSeconds(20);
    /** What the puller's tests from outside allow: every order upstream answers pulled within 30 s. */
    private static final Duration PULLED_WITHIN = Duration.ofSeconds(30);
    /** An expired token, for as long as the silent orders' final attempts take at ttl 3 s, and more. */
    private static final Duration TOKEN_EXPIRED = Duration.ofSeconds(15);
    /** Answers taking 1 to 3 s: a median of 1.8 s and a 99th percentile of 2.8 s, nearly a third after the timeout. */
    private static final Duration SLOW_MEDIAN = Duration.ofMillis(1_800);

    private static final Duration SLOW_P99 = Duration.ofMillis(2_800);

    /** The suite's 6 push partitions doubled; 10 orders of a new partition go silent, twice. */
    private static final int PARTITIONS_ADDED = 6;

    private static final int PARTITIONS_ADDED_SILENT = 10;
    /** Ingest and the compensator look at the topics' metadata every 5 s; a loaded machine's margin beside it. */
    private static final Duration PARTITIONS_ADDED_READ_WITHIN = Duration.ofSeconds(15);

    private Scenarios() {}

    static List<Scenario> all(SuiteSettings settings) {
        Duration grace = settings.grace();
        List<Scenario> all = new ArrayList<>();
        // five ttls: long enough for every silent order to be pulled several times, so that calls per ttl mean much
        Duration stormSilence = settings.ttl().multipliedBy(5);
        // first: if the suite cannot pass without a fault, no other verdict means anything. Out of CI: every set of
        // processes already proves in its warm-up that silent orders fire and are pulled
        all.add(new Scenario(
                "baseline",
                false,
                Map.of(),
                grace,
                (lab, workload) -> FaultReport.recoveredAt(System.currentTimeMillis())));
        // the kills but the timer's, the freezes, the Redis losses and the poison are out of CI: the chaos run strikes
        // with each of them many times (fault-suite's ChaosRunTest)
        for (Role service : Role.values()) {
            all.add(
                    service == Role.TIMER
                            // issue 40: killed two seconds before the silent orders' deadlines, started again at them
                            ? new Scenario(
                                    "kill-timer",
                                    true,
                                    Map.of(),
                                    RESTARTED_TIMER_FIRES_WITHIN,
                                    new RestartAcrossDeadlines(Role.TIMER, KILLED_BEFORE_DEADLINES))
                            : new Scenario(
                                    "kill-" + service.command,
                                    false,
                                    Map.of(),
                                    grace,
                                    new KillAndRestart(service, RESTART_AFTER)));
        }
        all.add(new Scenario(
                "rolling-restart", true, Map.of(), ROLLING_DELAYS_AT_MOST, new RollingRestart(ROLL_APART)));
        for (Role service : List.of(Role.INGEST, Role.TIMER, Role.PULLER)) {
            all.add(new Scenario(
                    "freeze-" + service.command,
                    false,
                    Map.of(),
                    grace,
                    new Freeze(service, settings.ttl().multipliedBy(3))));
        }
        all.add(new Scenario("redis-restart", false, Map.of(), grace, new RedisLoss(true)));
        all.add(new Scenario("redis-flushall", false, Map.of(), grace, new RedisLoss(false)));
        all.add(new Scenario(
                "two-instances",
                false,
                Map.of(ConfigKeys.REDIS_CLUSTER, "true"),
                SESSION_ENDED_SERVED_WITHIN,
                new KillOneOfTwo(SECOND_INSTANCES_START)));
        all.add(new Scenario("broker-down", false, Map.of(), grace, new BrokerDown(BROKER_DOWN)));
        all.add(new Scenario("upstream-5xx", false, Map.of(), grace, UpstreamOutage.errors(UPSTREAM_ERRORS)));
        all.add(new Scenario("upstream-stall", false, Map.of(), grace, UpstreamOutage.stalls(UPSTREAM_STALL)));
        // the puller's scenarios, on one generation while they pass: two attempts, so that final ones meet the fault
        Map<ConfigKey, String> twoAttempts = Map.of(ConfigKeys.TIMER_MAX_ATTEMPTS, "2");
        List<Scenario> puller = List.of(
                new Scenario(
                        "refused-orders",
                        false,
                        twoAttempts,
                        grace,
                        new RefusedOrders(20, 10, Duration.ofSeconds(10), PULLED_WITHIN)),
                new Scenario(
                        "upstream-token-expired",
                        false,
                        twoAttempts,
                        grace,
                        new CredentialsRefused(401, TOKEN_EXPIRED, PULLED_WITHIN)),
                new Scenario(
                        "puller-rolling-restart",
                        false,
                        twoAttempts,
                        grace,
                        new PullerRollingRestart(2, PULLED_WITHIN)),
                // one attempt: each silent order expires once and is pulled once
                new Scenario(
                        "upstream-slow",
                        false,
                        Map.of(ConfigKeys.TIMER_MAX_ATTEMPTS, "1"),
                        grace,
                        new SlowUpstream(SLOW_MEDIAN, SLOW_P99, PULLED_WITHIN)));
        all.addAll(puller);
        // and once more with the four services in one lapse all process
        puller.forEach(scenario -> all.add(scenario.inOneProcess()));
        all.add(new Scenario(
                "fast-producer-clock",
                false,
                Map.of(),
                grace,
                new FastClockDuringFreeze(Duration.ofSeconds(9), Duration.ofSeconds(60))));
        // out of CI: devtools' SoakRunSmokeTest runs the same storm on processes in every build
        all.add(new Scenario(
                "fleet-silence",
                false,
                Map.of(),
                grace,
                new FleetWideSilence(stormSilence, STORM_NOTICED_WITHIN, Storm.WHOLE_FLEET)));
        all.add(new Scenario(
                "fleet-silence-puller-restart",
                false,
                Map.of(),
                grace,
                new FleetWideSilence(stormSilence, STORM_NOTICED_WITHIN, Storm.PULLER_RESTARTED_MID_DRAIN)));
        all.add(new Scenario(
                "fleet-silence-one-partition",
                false,
                Map.of(),
                grace,
                new FleetWideSilence(stormSilence, STORM_NOTICED_WITHIN, Storm.ONE_PARTITION)));
        all.add(new Scenario(
                "fleet-silence-staggered",
                false,
                // 240 orders at 60 pulls/s: a backlog that drains in 4 s, well within the silence once the puller
                // is thawed 6 s into it
                Map.of(ConfigKeys.UPSTREAM_RATE_LIMIT, "60"),
                grace,
                new FleetWideSilence(stormSilence, STORM_NOTICED_WITHIN, Storm.STAGGERED)));
        all.add(new Scenario(
                "fleet-silence-ingest-lagging",
                false,
                Map.of(),
                grace,
                new FleetWideSilence(stormSilence, STORM_NOTICED_WITHIN, Storm.INGEST_LAGGING)));
        all.add(new Scenario(
                "fleet-silence-redis-flushed",
                false,
                Map.of(),
                grace,
                new FleetWideSilence(stormSilence, STORM_NOTICED_WITHIN, Storm.REDIS_FLUSHED)));
        // issue 44, out of CI: one cohort of several (uneven sizes, the smallest never judged) goes silent while the
        // rest push on; then churn below the cohort share, which must tell nothing
        List<Integer> cohortSizes = List.of(150, 70, 40, 30, 10);
        Duration cohortEventWithin = Duration.ofSeconds(30);
        all.add(new Scenario(
                "cohort-silence",
                false,
                CohortOrders.lapseSettings(),
                grace,
                new CohortSilence(cohortSizes, 1, cohortEventWithin)));
        all.add(new Scenario(
                "cohort-churn",
                false,
                CohortOrders.lapseSettings(),
                grace,
                new CohortChurn(cohortSizes, 40, Duration.ofSeconds(40), cohortEventWithin)));
        // last: poison that stops a consumer would otherwise cost the next scenario a fresh generation
        all.add(new Scenario("poison", false, Map.of(), grace, new PoisonRecords(POISON)));
        // after every other: it leaves the generation's push topic with more partitions than the suite creates
        all.add(new Scenario(
                "partitions-added",
                false,
                Map.of(),
                grace,
                new PartitionsAdded(PARTITIONS_ADDED, PARTITIONS_ADDED_SILENT, grace, PARTITIONS_ADDED_READ_WITHIN)));
        return all;
    }

    /**
     * @param names scenario names, or {@code all}, or {@code ci}; the result keeps the suite's order
     * @throws IllegalArgumentException naming the scenarios there are, for a name there is not
     */
    static List<Scenario> select(List<String> names, SuiteSettings settings) {
        List<Scenario> all = all(settings);
        Map<String, Scenario> byName = all.stream().collect(Collectors.toMap(Scenario::name, Function.identity()));
        Set<Scenario> chosen = new LinkedHashSet<>();
        for (String name : names) {
            switch (name) {
                case "all" -> chosen.addAll(all);
                case "ci" -> all.stream().filter(Scenario::inCi).forEach(chosen::add);
                default -> {
                    Scenario scenario = byName.get(name);
                    if (scenario == null) {
                        throw new IllegalArgumentException("no scenario '" + name + "'; there are: all, ci, "
                                + all.stream().map(Scenario::name).collect(Collectors.joining(", ")));
                    }
                    chosen.add(scenario);
                }
            }
        }
        return all.stream().filter(chosen::contains).toList();
    }
}
