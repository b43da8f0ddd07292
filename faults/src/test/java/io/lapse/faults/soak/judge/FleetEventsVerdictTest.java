package io.lapse.faults.soak.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.CohortEvent;
import io.lapse.event.FleetEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FleetEventsVerdictTest {

    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final long START = 1_700_000_000_000L;
    private static final long SILENCED = START + 240_000;
    private static final long RESUMED = SILENCED + 130_000;
    private static final CohortSilenceTruth TRUTH = new CohortSilenceTruth("op-15", 9_800, SILENCED, RESUMED);

    private static CohortEvent started(String cohort, long at) {
        return new CohortEvent(
                CohortEvent.Kind.COHORT_SILENCE_STARTED,
                at,
                at - 20_000,
                "push",
                "operatorId",
                cohort,
                9_900,
                9_700,
                1.0,
                660.0);
    }

    private static FleetEventsVerdict verdict(
            Optional<CohortSilenceTruth> truth, boolean expected, List<CohortEvent> cohort, List<FleetEvent> fleet) {
        return new FleetEventsVerdict(truth, expected, cohort, fleet, WINDOW, START);
    }

    @Test
    void aStartWithinTwoWindowsAndAnEndAfterTheResumeAndNothingElseHold() {
        CohortEvent start = started("op-15", SILENCED + 40_000);
        CohortEvent end = start.ended(RESUMED + 20_000, 9_750, 50, 650.0);

        FleetEventsVerdict verdict = verdict(Optional.of(TRUTH), true, List.of(start, end), List.of());

        assertThat(verdict.startedAfterWindows()).contains(40_000 / 30_000.0);
        assertThat(verdict.announcedInTime()).isTrue();
        assertThat(verdict.endedAfterResume()).isTrue();
        assertThat(verdict.others()).isEmpty();
        assertThat(verdict.holds()).isTrue();
        assertThat(verdict.markdown())
                .contains("cohort op-15: its 9,800 active orders stopped pushing")
                .contains("COHORT_SILENCE_STARTED at")
                .contains("1.33 windows after (goal: within 2): met")
                .contains("names 9,700 silent of 9,900 orders (truth: 9,800 silent")
                .contains("COHORT_SILENCE_ENDED at")
                .contains("0.67 windows after they pushed again")
                .contains("other fleet or cohort events: 0 (goal: none): met");
    }

    @Test
    void aStartLaterThanTwoWindowsDoesNotHold() {
        CohortEvent start = started("op-15", SILENCED + 61_000);
        CohortEvent end = start.ended(RESUMED + 20_000, 9_750, 50, 650.0);

        FleetEventsVerdict verdict = verdict(Optional.of(TRUTH), true, List.of(start, end), List.of());

        assertThat(verdict.announcedInTime()).isFalse();
        assertThat(verdict.holds()).isFalse();
        assertThat(verdict.markdown()).contains("(goal: within 2): NOT MET");
    }

    @Test
    void anEndBeforeThePushesResumedOrNoneDoesNotHold() {
        CohortEvent start = started("op-15", SILENCED + 40_000);

        assertThat(verdict(Optional.of(TRUTH), true, List.of(start), List.of()).holds())
                .isFalse();
        FleetEventsVerdict early = verdict(
                Optional.of(TRUTH), true, List.of(start, start.ended(RESUMED - 1_000, 9_000, 800, 600)), List.of());
        assertThat(early.endedAfterResume()).isFalse();
        assertThat(early.holds()).isFalse();
    }

    @Test
    void everyOtherEventIsReportedAndFailsTheVerdict() {
        CohortEvent start = started("op-15", SILENCED + 40_000);
        CohortEvent end = start.ended(RESUMED + 20_000, 9_750, 50, 650.0);
        CohortEvent second = started("op-15", RESUMED + 90_000);
        CohortEvent other = started("op-201", SILENCED + 10_000);
        FleetEvent fleet = new FleetEvent(
                FleetEvent.Kind.SILENCE_STARTED, SILENCED + 5_000, SILENCED, "push", List.of(), 1_000_000, 0.9);

        FleetEventsVerdict verdict =
                verdict(Optional.of(TRUTH), true, List.of(other, start, end, second), List.of(fleet));

        assertThat(verdict.started()).contains(start);
        assertThat(verdict.ended()).contains(end);
        assertThat(verdict.others()).containsExactly(fleet, other, second);
        assertThat(verdict.holds()).isFalse();
        assertThat(verdict.markdown())
                .contains("other fleet or cohort events: 3 (goal: none): NOT MET")
                .contains("SILENCE_STARTED at")
                .contains("cohort op-201");
    }

    @Test
    void churnWithoutASilentCohortHoldsOnlyWithoutAnyEvent() {
        assertThat(verdict(Optional.empty(), false, List.of(), List.of()).holds())
                .isTrue();
        assertThat(verdict(Optional.empty(), false, List.of(started("op-3", SILENCED)), List.of())
                        .holds())
                .isFalse();
        assertThat(verdict(Optional.empty(), true, List.of(), List.of()).holds())
                .as("a cohort silence that the load never made")
                .isFalse();
    }
}
