package io.lapse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void acceptsTheShortFormsOperatorsWrite() {
        assertThat(Durations.parse("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("1500ms")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("24h")).isEqualTo(Duration.ofHours(24));
        assertThat(Durations.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(Durations.parse(" 90 S ")).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void acceptsIso8601() {
        assertThat(Durations.parse("PT90S")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("pt1.5s")).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void rejectsAnythingElseSayingWhatWouldWork() {
        for (String bad : new String[] {"90", "ninety seconds", "1.5s", "-5s", "PT", ""}) {
            assertThatThrownBy(() -> Durations.parse(bad)).hasMessageContaining("not a duration (write e.g. 90s");
        }
    }

    @Test
    void formatsTheShortestExactForm() {
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofHours(24))).isEqualTo("1d");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
    }
}
