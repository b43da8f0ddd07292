package io.lapse.bench.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.bench.report.Rate;
import org.junit.jupiter.api.Test;

class FoldRatioTest {

    private static final long SECOND = 1_000_000_000L;

    /** A pass that took a core's full time. */
    private static Fold fold(long records, long nanos, boolean complete) {
        return new Fold(new Rate(records, nanos, complete), nanos);
    }

    @Test
    void comparesTheCompensatorsRateWithTheBaselines() {
        FoldRatio ratio = new FoldRatio(fold(1_000_000, 10 * SECOND, true), fold(1_000_000, 16 * SECOND, true));

        assertThat(ratio.ratio()).isEqualTo(0.625);
        assertThat(ratio.met()).isTrue();
    }

    @Test
    void printsBothApplicationsAndTheRatioAsATable() {
        String table = new FoldRatio(fold(1_000_000, 10 * SECOND, true), fold(1_000_000, 16 * SECOND, true)).markdown();

        assertThat(table.lines())
                .hasSize(4)
                .anySatisfy(line -> assertThat(line)
                        .startsWith("| baseline")
                        .contains("| 1,000,000 |", "|    10.0 |", "|   100,000 |", "|          10.0 |"))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("| Lapse compensator")
                        .contains("|    16.0 |", "|    62,500 |", "|          16.0 |", " 0.63 |", "| ≥ 0.5 |"));
    }

    @Test
    void saysWhenTheGoalIsNotMet() {
        FoldRatio ratio = new FoldRatio(fold(1_000, SECOND, true), fold(1_000, 3 * SECOND, true));

        assertThat(ratio.met()).isFalse();
        assertThat(ratio.markdown()).contains(" 0.33 |", "≥ 0.5 (not met)");
    }

    @Test
    void refusesRunsOverDifferentBacklogs() {
        assertThatThrownBy(() -> new FoldRatio(fold(1_000, SECOND, true), fold(999, SECOND, true)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not the same backlog");
    }
}
