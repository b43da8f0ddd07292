package io.lapse.faults.soak.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.simulator.Fleet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SessionChurnTest {

    /** What the churn told, as the judge would hear it. */
    private static final class Told implements SessionChurn.Events {
        final List<String> silenced = new ArrayList<>();
        final List<String> cohortsSilenced = new ArrayList<>();
        final List<String> cohortsResumed = new ArrayList<>();

        @Override
        public void silenced(String orderId) {
            silenced.add(orderId);
        }

        @Override
        public void finished(String orderId) {}

        @Override
        public void stormBegan(long at) {}

        @Override
        public void stormEnded(long at) {}

        @Override
        public void cohortSilenced(String cohort, int orders, long at) {
            cohortsSilenced.add(cohort + " " + orders);
        }

        @Override
        public void cohortResumed(String cohort, long at) {
            cohortsResumed.add(cohort);
        }
    }

    private static LoadPlan plan(double missShare, CohortPlan cohorts) {
        return new LoadPlan(
                1_000,
                Duration.ofSeconds(15),
                Duration.ofMinutes(30),
                Duration.ofMinutes(90),
                0,
                Duration.ZERO,
                Duration.ZERO,
                Duration.ZERO,
                Duration.ZERO,
                missShare,
                cohorts);
    }

    @Test
    void theCohortNearestTheShareStopsAllAtOnceAndEveryPushNamesItsCohort() {
        Fleet fleet = new Fleet(Clock.systemUTC());
        Told told = new Told();
        // silent for a millisecond: the next round resumes it
        SessionChurn churn = new SessionChurn(
                fleet,
                plan(0, new CohortPlan(20, 0.1, Duration.ZERO, Duration.ofMillis(1))),
                new SplittableRandom(7),
                told);
        CohortSizes sizes = CohortSizes.zipf(1_000, 20);
        int silent = sizes.nearest(0.1);
        String name = CohortSizes.name(silent);

        churn.run();

        int size = sizes.sizes().get(silent);
        assertThat(told.cohortsSilenced).containsExactly(name + " " + size);
        assertThat(told.silenced).hasSize(size);
        assertThat(fleet.count(Fleet.Mode.SILENT)).isEqualTo(size);
        assertThat(churn.pushing()).isEqualTo(1_000 - size);
        assertThat(churn.silenced()).isEqualTo(size);
        for (String orderId : told.silenced) {
            assertThat(fleet.current(orderId).orElseThrow().payload()).containsEntry(CohortSizes.FIELD, name);
        }
        for (String orderId : fleet.ids(Fleet.Mode.PUSHING)) {
            assertThat(fleet.current(orderId).orElseThrow().payload())
                    .containsKey(CohortSizes.FIELD)
                    .doesNotContainEntry(CohortSizes.FIELD, name);
        }

        long start = System.currentTimeMillis();
        while (System.currentTimeMillis() <= start + 1) {
            Thread.onSpinWait(); // the silence lasts a millisecond of the wall clock the churn reads
        }
        churn.run();

        assertThat(told.cohortsResumed).containsExactly(name);
        assertThat(fleet.count(Fleet.Mode.SILENT)).isZero();
        assertThat(churn.pushing()).isEqualTo(1_000);
    }

    @Test
    void withoutCohortsNoPushNamesOneAndNoneGoesSilent() {
        Fleet fleet = new Fleet(Clock.systemUTC());
        Told told = new Told();
        SessionChurn churn = new SessionChurn(fleet, plan(0, CohortPlan.NONE), new SplittableRandom(7), told);

        churn.run();

        assertThat(told.cohortsSilenced).isEmpty();
        assertThat(fleet.ids(Fleet.Mode.PUSHING))
                .hasSize(1_000)
                .allSatisfy(orderId -> assertThat(
                                fleet.current(orderId).orElseThrow().payload())
                        .doesNotContainKey(CohortSizes.FIELD));
    }

    @Test
    void aShareMissesAPushEachRoundAndAQuarterOfThemTheNextToo() {
        Fleet fleet = new Fleet(Clock.systemUTC());
        SessionChurn churn = new SessionChurn(fleet, plan(0.1, CohortPlan.NONE), new SplittableRandom(7), new Told());

        churn.run();
        assertThat(churn.missedPushes()).isEqualTo(100);

        churn.run();
        // a hundred more, and the second miss of about 25
        assertThat(churn.missedPushes()).isBetween(210L, 240L);
        assertThat(fleet.count(Fleet.Mode.SILENT)).isZero();
    }
}
