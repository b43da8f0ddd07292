package io.lapse.faults.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeadLetterTallyTest {

    private static final Timeline SCENARIO = new Timeline(1_000, 2_000, 8_000, 10_000);
    private static final RecordRef FIRST = new RecordRef("push", 0, 7);
    private static final RecordRef SECOND = new RecordRef("expired", 3, 1);

    @Test
    void oneDeadLetterPerPoisonRecordMatches() {
        DeadLetterTally.Figures figures = DeadLetterTally.of(
                List.of(FIRST, SECOND),
                List.of(letter(FIRST, 3_000), letter(SECOND, 20_000)),
                SCENARIO,
                Set.of(),
                Set.of());

        assertThat(figures).isEqualTo(new DeadLetterTally.Figures(2, 2, 0, 0));
        assertThat(figures.matches()).isTrue();
    }

    @Test
    void aPoisonRecordWithoutADeadLetterOrWithTwoDoesNotMatch() {
        assertThat(DeadLetterTally.of(
                        List.of(FIRST, SECOND), List.of(letter(FIRST, 3_000)), SCENARIO, Set.of(), Set.of()))
                .isEqualTo(new DeadLetterTally.Figures(2, 1, 1, 0));
        assertThat(DeadLetterTally.of(
                                List.of(FIRST),
                                List.of(letter(FIRST, 3_000), letter(FIRST, 4_000)),
                                SCENARIO,
                                Set.of(),
                                Set.of())
                        .matches())
                .isFalse();
    }

    @Test
    void aDeadLetterDuringTheScenarioForAValidRecordIsUnexpected() {
        DeadLetterTally.Figures figures = DeadLetterTally.of(
                List.of(), List.of(letter(new RecordRef("push", 1, 99), 5_000)), SCENARIO, Set.of(), Set.of());

        assertThat(figures).isEqualTo(new DeadLetterTally.Figures(0, 1, 0, 1));
        assertThat(figures.matches()).isFalse();
    }

    @Test
    void deadLettersOfOtherScenariosPoisonAndOutsideTheScenarioAreNotItsOwn() {
        RecordRef earlier = new RecordRef("push", 2, 5);
        DeadLetterTally.Figures figures = DeadLetterTally.of(
                List.of(),
                List.of(letter(earlier, 5_000), letter(new RecordRef("push", 1, 99), 50_000)),
                SCENARIO,
                Set.of(earlier),
                Set.of());

        assertThat(figures).isEqualTo(new DeadLetterTally.Figures(0, 0, 0, 0));
        assertThat(figures.matches()).isTrue();
    }

    @Test
    void deadLettersOfOrdersWhosePullsTheFaultMadeFailAreExpected() {
        DeadLetterTally.Figures figures = DeadLetterTally.of(
                List.of(),
                List.of(new Seen.DeadLetter(SECOND, "refused-1", "pull FAILED", 5_000), letter(FIRST, 5_000)),
                SCENARIO,
                Set.of(),
                Set.of("refused-1"));

        assertThat(figures).isEqualTo(new DeadLetterTally.Figures(0, 1, 0, 1));
    }

    private static Seen.DeadLetter letter(RecordRef source, long writtenAt) {
        return new Seen.DeadLetter(source, "order-1", "not JSON", writtenAt);
    }
}
