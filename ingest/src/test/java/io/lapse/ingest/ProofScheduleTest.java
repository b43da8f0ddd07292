package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ProofScheduleTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final long QUICK = ProofSchedule.QUICK.toMillis();
    private static final long AT_REST = ProofSchedule.AT_REST.toMillis();
    private static final long LEAD = ProofSchedule.LEAD.toMillis();

    private final ProofSchedule schedule = new ProofSchedule();

    @Test
    void withNothingDueTheBrokerIsAskedOnceASecond() {
        schedule.earliestDue(OptionalLong.empty());

        assertThat(schedule.quick(NOW)).isFalse();
        assertThat(schedule.nextAsk(NOW)).isEqualTo(NOW + AT_REST);
        assertThat(schedule.nextLook(NOW)).isEqualTo(NOW + AT_REST);
    }

    @Test
    void aDeadlineMinutesAwayChangesNothing() {
        schedule.earliestDue(OptionalLong.of(NOW + 75_000));

        assertThat(schedule.nextAsk(NOW)).isEqualTo(NOW + AT_REST);
    }

    @Test
    void questionsGoQuicklyFromTheLeadBeforeTheEarliestDueOn() {
        long due = NOW + 600;
        schedule.earliestDue(OptionalLong.of(due));

        assertThat(schedule.nextAsk(NOW)).as("the first quick one").isEqualTo(due - LEAD);
        assertThat(schedule.quick(due - LEAD - 1)).isFalse();
        assertThat(schedule.quick(due - LEAD)).isTrue();
        assertThat(schedule.nextAsk(due - LEAD)).isEqualTo(due - LEAD + QUICK);
        assertThat(schedule.nextAsk(due + 10_000))
                .as("a deadline that stays due (nobody fires it) keeps them quick")
                .isEqualTo(due + 10_000 + QUICK);
    }

    @Test
    void whileADeadlineIsNearTheDueSetsAreReadATenthOfASecondApart() {
        schedule.earliestDue(OptionalLong.of(NOW));

        assertThat(schedule.nextLook(NOW)).isEqualTo(NOW + ProofSchedule.LOOK_QUICK.toMillis());
    }

    @Test
    void aDeadlineComingNearIsReadAgainWhenTheQuestionsTurnQuick() {
        schedule.earliestDue(OptionalLong.of(NOW + 700));

        assertThat(schedule.nextLook(NOW)).isEqualTo(NOW + 700 - LEAD);
    }
}
