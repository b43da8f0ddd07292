package io.lapse.faults.fault;

import io.lapse.event.CohortEvent;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.observe.FiringTally;
import io.lapse.faults.observe.FleetEventsTap;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.observe.Seen;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.CohortOrders;
import io.lapse.faults.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the cohort scenarios watch and judge at the edge: the fleet events topic as billing's reader sees it, the
 * cohort orders' expiries and pull results in Kafka, and ingest's count of judged cohorts (to know when the judge
 * has a baseline). Each wait is for an event, with a timeout that only a broken pipeline reaches; what did not happen
 * is a failure, described.
 */
final class CohortWatch implements AutoCloseable {

    private static final String JUDGED_GAUGE = "lapse_fleet_cohorts_judged";
    private static final String RATE_GAUGE = "lapse_fleet_push_rate";
    private static final String BASELINE_GAUGE = "lapse_fleet_push_baseline";
    /** The share of the fleet's rate its baseline must reach once the cohorts' orders push. */
    private static final double BASELINE_CAUGHT_UP = 0.9;

    private static final Duration CAUGHT_UP_WITHIN = Duration.ofSeconds(60);
    private static final int EXAMPLES = 5;
    private static final Logger log = LoggerFactory.getLogger(CohortWatch.class);

    private final Lab lab;
    private final CohortOrders orders;
    private final FleetEventsTap events;
    private final List<String> failures = new ArrayList<>();
    private final long startedAt = System.currentTimeMillis();

    CohortWatch(Lab lab, CohortOrders orders) {
        this.lab = lab;
        this.orders = orders;
        this.events = FleetEventsTap.start(
                lab.broker().bootstrapServers(),
                lab.generation().topics().fleetEvents(),
                lab.settings().partitions(),
                startedAt);
    }

    /**
     * Runs a cohort scenario's steps on cohort orders of its own, which are finished afterwards; what the steps found
     * wrong is the report's failures.
     */
    static FaultReport run(Lab lab, Workload workload, BiConsumer<CohortWatch, CohortOrders> steps) {
        CohortOrders orders = new CohortOrders(lab.fleet(), workload.namespace());
        try (CohortWatch watch = new CohortWatch(lab, orders)) {
            steps.accept(watch, orders);
            return FaultReport.recoveredAt(watch.startedAt).withFailingOrders(Set.of(), List.copyOf(watch.failures));
        } finally {
            orders.end();
        }
    }

    /**
     * Waits until ingest judges every cohort of at least {@link CohortOrders#MIN_ORDERS} orders of these (it has
     * counted a window and a window of baseline of each), and until the fleet's baseline has taken in their pushes:
     * ingest turns pushes into orders with the fleet's push interval (watched orders ÷ the fleet's baseline rate),
     * which a fleet that just grew by these orders would overstate.
     *
     * @return whether it did in time; a failure when not
     */
    boolean awaitJudged(Map<String, Integer> cohorts, Duration within) {
        long judgeable = cohorts.values().stream()
                .filter(n -> n >= CohortOrders.MIN_ORDERS)
                .count();
        LapseProcess ingest = lab.generation().services().first(Role.INGEST);
        if (!Waiting.until(() -> UpstreamCalls.gauge(ingest, JUDGED_GAUGE, "") >= judgeable, within)) {
            failures.add("ingest judged " + UpstreamCalls.gauge(ingest, JUDGED_GAUGE, "") + " cohorts, not the "
                    + judgeable + " of at least " + CohortOrders.MIN_ORDERS + " orders, " + within.toSeconds()
                    + " s after their orders began to push");
            return false;
        }
        if (!Waiting.until(
                () -> UpstreamCalls.gauge(ingest, BASELINE_GAUGE, "")
                        >= BASELINE_CAUGHT_UP * UpstreamCalls.gauge(ingest, RATE_GAUGE, ""),
                within)) {
            failures.add("ingest's fleet baseline (" + UpstreamCalls.gauge(ingest, BASELINE_GAUGE, "")
                    + " pushes per second) did not reach " + BASELINE_CAUGHT_UP + " of its rate ("
                    + UpstreamCalls.gauge(ingest, RATE_GAUGE, "") + ") within " + within.toSeconds() + " s");
            return false;
        }
        return true;
    }

    /** @return the first event of that kind naming the cohort, or null (and a failure) when none came in time */
    CohortEvent awaitEvent(CohortEvent.Kind kind, String cohort, Duration within, String after) {
        if (Waiting.until(() -> !events.of(kind, cohort).isEmpty(), within)) {
            return events.of(kind, cohort).get(0);
        }
        failures.add("no " + kind + " naming " + cohort + " within " + within.toSeconds() + " s of " + after);
        return null;
    }

    /** Waits until each of these orders has an expiry and a pull result in Kafka; a failure naming the rest if not. */
    void awaitFiredAndPulled(Collection<String> silent, Duration within, String which) {
        Observations seen = lab.generation().observations();
        if (Waiting.until(() -> seen.allExpiredAndAnswered(silent), within)) {
            return;
        }
        Set<String> answered = seen.pulls().stream().map(Seen.Pull::orderId).collect(Collectors.toSet());
        List<String> missing =
                silent.stream().filter(id -> !answered.contains(id)).sorted().toList();
        failures.add(missing.size() + " of " + silent.size() + " " + which + " were not fired and pulled within "
                + within.toSeconds() + " s: " + missing.stream().limit(EXAMPLES).toList());
    }

    /** Waits until each of these orders' pushes since {@code since} are read back from Kafka. */
    void awaitPushedSince(Collection<String> resumed, long since, Duration within) {
        Observations seen = lab.generation().observations();
        if (!Waiting.until(
                () -> {
                    Map<String, Long> newest = seen.newestPushes(resumed);
                    return resumed.stream().allMatch(id -> newest.getOrDefault(id, 0L) >= since);
                },
                within)) {
            failures.add("the " + resumed.size() + " resumed orders' pushes were not read back from Kafka within "
                    + within.toSeconds() + " s");
        }
    }

    /**
     * Reads every topic to its end and judges what the cohort orders did there: no fleet-wide silence, no expiry of an
     * order outside {@code mayFire}, and no false expiry of one inside (fired while it pushed, or after it finished).
     */
    void judgeFirings(Set<String> mayFire) {
        Observations seen = lab.generation().observations();
        if (!seen.awaitCaughtUp(lab.admin(), CAUGHT_UP_WITHIN)
                || !events.awaitCaughtUp(lab.admin(), CAUGHT_UP_WITHIN)) {
            failures.add("the topics could not be read to their end within " + CAUGHT_UP_WITHIN.toSeconds() + " s");
        }
        if (!events.fleetEvents().isEmpty()) {
            failures.add("the fleet's silence was told, though most of it pushed on: " + events.fleetEvents());
        }
        List<Seen.Expiry> expiries = seen.expiries();
        Set<String> live =
                orders.all().stream().filter(id -> !mayFire.contains(id)).collect(Collectors.toSet());
        List<String> liveFired = expiries.stream()
                .map(Seen.Expiry::orderId)
                .filter(live::contains)
                .distinct()
                .sorted()
                .toList();
        if (!liveFired.isEmpty()) {
            failures.add(liveFired.size() + " orders that never went silent fired: "
                    + liveFired.stream()
                            .limit(EXAMPLES)
                            .map(id -> id + " of " + orders.cohortOf(id))
                            .toList());
        }
        List<FiringTally.FalseExpiry> falseOnes = FiringTally.falseExpiries(
                mayFire, seen.pushes(), expiries, lab.settings().ttl());
        if (!falseOnes.isEmpty()) {
            failures.add(falseOnes.size() + " false expiries: "
                    + falseOnes.stream()
                            .limit(EXAMPLES)
                            .map(FiringTally.FalseExpiry::why)
                            .toList());
        }
        log.info(
                "{} cohort orders, {} of which could fire: {} expiries of them; events {}",
                orders.all().size(),
                mayFire.size(),
                expiries.stream().filter(e -> mayFire.contains(e.orderId())).count(),
                events.cohortEvents().stream()
                        .map(e -> e.event() + " " + e.cohort() + " " + (e.at() - startedAt) + " ms in, orders "
                                + e.orders() + ", silent " + e.silentOrders())
                        .toList());
    }

    /** Fails unless the cohort events are exactly these, in this order: (kind, cohort) pairs. */
    void requireCohortEvents(List<Map.Entry<CohortEvent.Kind, String>> expected) {
        List<Map.Entry<CohortEvent.Kind, String>> told = events.cohortEvents().stream()
                .map(e -> Map.entry(e.event(), e.cohort()))
                .toList();
        if (!told.equals(expected)) {
            failures.add("cohort events " + told + ", not " + expected);
        }
    }

    void fail(String failure) {
        failures.add(failure);
    }

    @Override
    public void close() {
        events.close();
    }
}
