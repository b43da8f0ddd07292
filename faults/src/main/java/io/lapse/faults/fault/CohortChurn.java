package io.lapse.faults.fault;

import io.lapse.event.CohortEvent;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.CohortOrders;
import io.lapse.faults.workload.Workload;
import io.lapse.simulator.Fleet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The churn of a good day, cohort by cohort (uneven sizes, each order naming its cohort in {@link CohortOrders#FIELD}),
 * drawn from a fixed seed, one round per push interval: orders miss a push (one at a time: at the suite's ttl of three
 * push intervals two in a row are a silence), a few orders of various cohorts fall silent for good (never more than
 * {@link #MOST_SILENT_SHARE} of a cohort, well below {@code fleet.cohort-silent-percent}), orders finish and new ones
 * start in their cohorts. No cohort event may be told for it, nor a fleet-wide silence; the orders silent for good
 * still fire and are pulled, and no other order fires. Then a canary cohort that did not churn goes silent whole: its
 * COHORT_SILENCE_STARTED, decided after the churn, proves the judge watched the churn and found nothing, where a judge
 * that never speaks would pass; it ends once the canary pushes again.
 *
 * @param sizes    of the churning cohorts, in orders
 * @param canary   orders of the canary cohort
 * @param churning how long the churn lasts: a few baselines
 * @param within   how long each event may take: a bound only a broken pipeline reaches
 */
public record CohortChurn(List<Integer> sizes, int canary, Duration churning, Duration within) implements Fault {

    /** The most of a cohort's orders that fall silent for good. */
    static final double MOST_SILENT_SHARE = 0.2;

    private static final Logger log = LoggerFactory.getLogger(CohortChurn.class);
    private static final long SEED = 44;
    private static final int MISSES_PER_ROUND = 3;
    private static final int FINISHES_PER_ROUND = 1;
    /** An order misses no push again within this many rounds: two misses in a row would be a silence. */
    private static final int ROUNDS_BETWEEN_MISSES = 3;
    /** One order falls silent for good every this many rounds. */
    private static final int ROUNDS_PER_SILENCE = 3;

    public CohortChurn {
        sizes = List.copyOf(sizes);
        if (canary < CohortOrders.MIN_ORDERS) {
            throw new IllegalArgumentException("a canary of " + canary + " orders is never judged");
        }
    }

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        Fleet fleet = lab.fleet();
        return CohortWatch.run(lab, workload, (watch, orders) -> {
            Map<String, Integer> cohorts = orders.start(sizes);
            String canaryCohort = workload.namespace() + "-canary";
            List<String> canaries = orders.startIn(canaryCohort, canary);
            Map<String, Integer> judged = new HashMap<>(cohorts);
            judged.put(canaryCohort, canary);
            if (watch.awaitJudged(judged, within.multipliedBy(2))) {
                Churn churn = new Churn(fleet, orders, cohorts);
                long until = System.currentTimeMillis() + churning.toMillis();
                while (System.currentTimeMillis() < until) {
                    churn.round();
                    Waiting.sleep(lab.settings().pushInterval());
                }
                log.info("cohort churn: {}", churn.describe());
                canaries.forEach(fleet::silence);
                watch.awaitEvent(
                        CohortEvent.Kind.COHORT_SILENCE_STARTED,
                        canaryCohort,
                        within,
                        "the canary falling silent after the churn");
                Set<String> mayFire = new HashSet<>(churn.silentForGood());
                mayFire.addAll(canaries);
                watch.awaitFiredAndPulled(churn.silentForGood(), within, "orders silent for good");
                watch.awaitFiredAndPulled(canaries, within, "canary orders");
                canaries.forEach(fleet::resume);
                long resumedAt = System.currentTimeMillis();
                watch.awaitEvent(
                        CohortEvent.Kind.COHORT_SILENCE_ENDED, canaryCohort, within, "the canary pushing again");
                watch.awaitPushedSince(canaries, resumedAt, within);
                watch.awaitFiredAndPulled(canaries, within, "canary orders");
                watch.requireCohortEvents(List.of(
                        Map.entry(CohortEvent.Kind.COHORT_SILENCE_STARTED, canaryCohort),
                        Map.entry(CohortEvent.Kind.COHORT_SILENCE_ENDED, canaryCohort)));
                watch.judgeFirings(mayFire);
            }
        });
    }

    /** The churn's rounds, from the seed. Not thread-safe: the fault's thread alone runs it. */
    private static final class Churn {

        private final Fleet fleet;
        private final CohortOrders orders;
        private final Map<String, Integer> sizes;
        private final List<String> weighted = new ArrayList<>();
        private final Random random = new Random(SEED);
        private final List<String> silentForGood = new ArrayList<>();
        private final Map<String, Integer> silentIn = new HashMap<>();
        private final Map<String, Integer> missedIn = new HashMap<>();
        private int rounds;
        private int missed;
        private int finished;

        Churn(Fleet fleet, CohortOrders orders, Map<String, Integer> sizes) {
            this.fleet = fleet;
            this.orders = orders;
            this.sizes = sizes;
            // a cohort is drawn as often as it has orders: the big ones churn most, as real operators do
            sizes.forEach((cohort, size) -> {
                for (int i = 0; i < size; i++) {
                    weighted.add(cohort);
                }
            });
        }

        void round() {
            rounds++;
            for (int i = 0; i < MISSES_PER_ROUND; i++) {
                pushingOrderOf(drawCohort())
                        .filter(id ->
                                rounds - missedIn.getOrDefault(id, -ROUNDS_BETWEEN_MISSES) >= ROUNDS_BETWEEN_MISSES)
                        .ifPresent(id -> {
                            fleet.missPush(id);
                            missedIn.put(id, rounds);
                            missed++;
                        });
            }
            for (int i = 0; i < FINISHES_PER_ROUND; i++) {
                String cohort = drawCohort();
                pushingOrderOf(cohort).ifPresent(id -> {
                    fleet.finish(id);
                    finished++;
                    orders.startIn(cohort, 1);
                });
            }
            if (rounds % ROUNDS_PER_SILENCE == 0) {
                String cohort = drawCohort();
                int silentAlready = silentIn.getOrDefault(cohort, 0);
                if (silentAlready + 1 <= MOST_SILENT_SHARE * sizes.get(cohort)) {
                    pushingOrderOf(cohort).ifPresent(id -> {
                        fleet.silence(id);
                        silentForGood.add(id);
                        silentIn.merge(cohort, 1, Integer::sum);
                    });
                }
            }
        }

        private String drawCohort() {
            return weighted.get(random.nextInt(weighted.size()));
        }

        private Optional<String> pushingOrderOf(String cohort) {
            List<String> pushing = orders.pushing(orders.of(cohort));
            return pushing.isEmpty() ? Optional.empty() : Optional.of(pushing.get(random.nextInt(pushing.size())));
        }

        List<String> silentForGood() {
            return List.copyOf(silentForGood);
        }

        String describe() {
            return rounds + " rounds: " + missed + " missed pushes, " + finished + " orders finished and as many "
                    + "started, " + silentForGood.size() + " fell silent for good " + silentIn;
        }
    }
}
