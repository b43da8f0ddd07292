package io.lapse.faults.fault;

import io.lapse.event.CohortEvent;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.workload.CohortOrders;
import io.lapse.faults.workload.Workload;
import io.lapse.simulator.Fleet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One operator's backend goes dark: the orders of one cohort of several (uneven sizes, each order naming its cohort
 * in {@link CohortOrders#FIELD}) stop pushing at once while the rest of the fleet pushes on (upstream still answers
 * their pulls), until each has fired and been pulled; then they push again. Lapse must say so once, on the fleet
 * events topic as billing reads it: one COHORT_SILENCE_STARTED naming that cohort (about its orders silent), one
 * COHORT_SILENCE_ENDED once they push again, no other cohort event and no fleet-wide silence; every silent order fired
 * and pulled (a record on the pulled topic each), and no order of the other cohorts fired.
 *
 * @param sizes  of the cohorts, in orders; some below {@link CohortOrders#MIN_ORDERS}, which are never judged
 * @param silent the index of the cohort that goes silent
 * @param within how long each event may take: a bound only a broken pipeline reaches
 */
public record CohortSilence(List<Integer> sizes, int silent, Duration within) implements Fault {

    public CohortSilence {
        sizes = List.copyOf(sizes);
        if (silent < 0 || silent >= sizes.size() || sizes.get(silent) < CohortOrders.MIN_ORDERS) {
            throw new IllegalArgumentException("cohort " + silent + " of " + sizes + " is not one that is judged");
        }
    }

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        Fleet fleet = lab.fleet();
        return CohortWatch.run(lab, workload, (watch, orders) -> {
            Map<String, Integer> cohorts = orders.start(sizes);
            if (watch.awaitJudged(cohorts, within.multipliedBy(2))) {
                String cohort = List.copyOf(cohorts.keySet()).get(silent);
                List<String> silenced = orders.of(cohort);
                silenced.forEach(fleet::silence);
                CohortEvent start = watch.awaitEvent(
                        CohortEvent.Kind.COHORT_SILENCE_STARTED, cohort, within, "its orders falling silent");
                watch.awaitFiredAndPulled(silenced, within.multipliedBy(2), "orders of the silent cohort");
                silenced.forEach(fleet::resume);
                long resumedAt = System.currentTimeMillis();
                watch.awaitEvent(CohortEvent.Kind.COHORT_SILENCE_ENDED, cohort, within, "its orders pushing again");
                // whatever fired before the resumed pushes were read is theirs to answer
                watch.awaitPushedSince(silenced, resumedAt, within);
                watch.awaitFiredAndPulled(silenced, within, "orders of the silent cohort");
                if (start != null
                        && (start.silentOrders() < silenced.size() * 2 / 3
                                || start.silentOrders() > silenced.size() * 3 / 2)) {
                    watch.fail("COHORT_SILENCE_STARTED says about " + start.silentOrders() + " orders are silent, "
                            + "not about " + silenced.size());
                }
                watch.requireCohortEvents(List.of(
                        Map.entry(CohortEvent.Kind.COHORT_SILENCE_STARTED, cohort),
                        Map.entry(CohortEvent.Kind.COHORT_SILENCE_ENDED, cohort)));
                watch.judgeFirings(Set.copyOf(silenced));
            }
        });
    }
}
