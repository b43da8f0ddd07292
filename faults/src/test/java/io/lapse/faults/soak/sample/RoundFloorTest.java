package io.lapse.faults.soak.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.faults.soak.report.Growth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** A group that commits once a minute is judged by the floor of its lag's sawtooth, not by the teeth. */
class RoundFloorTest {

    private static final Duration ROUND = Duration.ofSeconds(60);

    private static List<SoakSample> judged(double seconds, DoubleUnaryOperator lagAt) {
        RoundFloor floor = new RoundFloor(ROUND);
        List<SoakSample> samples = new ArrayList<>();
        for (double at = 0; at <= seconds; at += 5) {
            double lag = floor.add((long) (at * 1000), lagAt.applyAsDouble(at));
            samples.add(new SoakSample(at, Map.of("lag.compensator.judged", lag)));
        }
        return samples;
    }

    @Test
    void aGroupThatHandsOverEveryRoundDoesNotGrowWhateverThePhaseOfItsTeeth() {
        for (double phase = 0; phase < 60; phase += 7) {
            double shift = phase;
            List<SoakSample> samples = judged(600, at -> 1 + (at + shift) % 60);

            assertThat(Growth.of(samples, "lag.compensator.judged").grows())
                    .as("phase %.0f s", phase)
                    .isFalse();
        }
    }

    @Test
    void aGroupWhoseHandOversFallBehindGrows() {
        // each round's hand-over leaves 3 s more behind than the one before
        List<SoakSample> samples = judged(600, at -> 0.05 * at + at % 60);

        assertThat(Growth.of(samples, "lag.compensator.judged").grows()).isTrue();
    }

    @Test
    void theSawtoothItselfWouldReadAsGrowingInSomePhases() {
        boolean anyGrows = false;
        for (double phase = 0; phase < 60; phase += 7) {
            double shift = phase;
            List<SoakSample> raw = new ArrayList<>();
            for (double at = 0; at <= 600; at += 5) {
                raw.add(new SoakSample(at, Map.of("lag.compensator.seconds", 1 + (at + shift) % 60)));
            }
            anyGrows |= Growth.of(raw, "lag.compensator.seconds").grows();
        }
        assertThat(anyGrows).as("why the floor is judged rather than the lag").isTrue();
    }
}
