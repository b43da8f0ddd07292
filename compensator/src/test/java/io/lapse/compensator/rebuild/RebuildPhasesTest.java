package io.lapse.compensator.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RebuildPhasesTest {

    @Test
    void theLogLineNamesEveryPhaseInSeconds() {
        RebuildPhases phases = new RebuildPhases(
                Duration.ofMillis(4_120),
                Duration.ofMillis(30),
                Duration.ofMillis(1_250),
                Duration.ofMillis(800),
                Duration.ofMillis(2_000),
                Duration.ofMillis(4),
                Duration.ofMillis(5_300));

        assertThat(phases.describe())
                .isEqualTo(
                        "caught up 4.1 s, mirror opened 0.0 s, read 1.3 s, encoded 0.8 s, Redis 2.0 s, declared 0.0 s;"
                                + " due soon firing after 5.3 s");
    }

    @Test
    void aPostponedRebuildSpentItsTimeCatchingUp() {
        assertThat(RebuildPhases.caughtUpOnly(Duration.ofSeconds(10)).describe())
                .startsWith("caught up 10.0 s, mirror opened 0.0 s, read 0.0 s");
    }

    @Test
    void noPhaseTakesNegativeTime() {
        assertThatThrownBy(() -> new RebuildPhases(
                        Duration.ZERO,
                        Duration.ZERO,
                        Duration.ofMillis(-1),
                        Duration.ZERO,
                        Duration.ZERO,
                        Duration.ZERO,
                        Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
