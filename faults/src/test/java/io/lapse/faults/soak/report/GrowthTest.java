package io.lapse.faults.soak.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.lapse.faults.soak.sample.SoakSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

class GrowthTest {

    private static List<SoakSample> lag(double seconds, DoubleUnaryOperator lagAt) {
        List<SoakSample> samples = new ArrayList<>();
        for (double at = 0; at <= seconds; at += 5) {
            samples.add(new SoakSample(at, Map.of("lag.ingest.seconds", lagAt.applyAsDouble(at))));
        }
        return samples;
    }

    @Test
    void aLagFallingBehindTheClockGrows() {
        // the group handles 95 % of what arrives: its lag gains 3 s every minute
        Growth growth = Growth.of(lag(600, at -> 0.05 * at), "lag.ingest.seconds");

        assertThat(growth.grows()).isTrue();
        assertThat(growth.secondsPerMinute()).isCloseTo(3, offset(0.01));
    }

    @Test
    void aSteadyLagThatRoseAtTheStartDoesNotGrow() {
        // a short run whose lag climbs to 4 s in its first minute and then stays: the start is left out
        Growth growth =
                Growth.of(lag(180, at -> at < 60 ? at / 15 : 4 + (at % 10 == 0 ? 0.3 : -0.3)), "lag.ingest.seconds");

        assertThat(growth.grows()).isFalse();
    }

    @Test
    void aRiseOfUnderTwoSecondsOverTheWindowDoesNotGrowHoweverSteep() {
        // a minute's run: the window is its last 40 s, over which 2 % of the clock is 0.8 s
        Growth growth = Growth.of(lag(60, at -> 0.02 * at), "lag.ingest.seconds");

        assertThat(growth.secondsPerMinute()).isGreaterThan(0.6);
        assertThat(growth.rise()).isLessThan(2);
        assertThat(growth.grows()).isFalse();
    }

    @Test
    void samplesWithoutAFigureAreLeftOut() {
        List<SoakSample> samples = lag(600, at -> at % 20 == 0 ? Double.NaN : 0.05 * at);

        assertThat(Growth.of(samples, "lag.ingest.seconds").grows()).isTrue();
    }
}
