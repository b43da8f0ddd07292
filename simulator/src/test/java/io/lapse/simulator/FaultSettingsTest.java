package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.lapse.simulator.FaultSettings.Fault;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FaultSettingsTest {

    private final SplittableRandom random = new SplittableRandom(42);

    @Test
    void eachFaultIsDrawnAtItsRate() {
        FaultSettings faults = FaultSettings.none()
                .withErrorRate(0.1)
                .withNotFoundRate(0.2)
                .withMalformedRate(0.05)
                .withOversizedRate(0.05)
                .withStalls(0.1, Duration.ofSeconds(1));
        Map<Fault, Integer> drawn = new EnumMap<>(Fault.class);
        int draws = 100_000;
        for (int i = 0; i < draws; i++) {
            drawn.merge(faults.draw(random), 1, Integer::sum);
        }

        assertThat(drawn.get(Fault.ERROR) / (double) draws).isCloseTo(0.1, within(0.01));
        assertThat(drawn.get(Fault.NOT_FOUND) / (double) draws).isCloseTo(0.2, within(0.01));
        assertThat(drawn.get(Fault.MALFORMED) / (double) draws).isCloseTo(0.05, within(0.01));
        assertThat(drawn.get(Fault.OVERSIZED) / (double) draws).isCloseTo(0.05, within(0.01));
        assertThat(drawn.get(Fault.STALL) / (double) draws).isCloseTo(0.1, within(0.01));
        assertThat(drawn.get(Fault.NONE) / (double) draws).isCloseTo(0.5, within(0.01));
    }

    @Test
    void latenciesHaveTheGivenMedianAndNinetyNinthPercentile() {
        FaultSettings faults = FaultSettings.none().withLatency(Duration.ofMillis(50), Duration.ofMillis(200));
        long[] millis = new long[20_001];
        for (int i = 0; i < millis.length; i++) {
            millis[i] = faults.drawLatency(random).toMillis();
        }
        Arrays.sort(millis);

        assertThat(millis[10_000]).isBetween(47L, 53L);
        assertThat(millis[19_800]).isBetween(180L, 220L);
        assertThat(FaultSettings.none().withLatency(Duration.ofMillis(50)).drawLatency(random))
                .isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void invalidFaultsAreRejectedWithTheReason() {
        assertRejected(
                () -> FaultSettings.none().withLatency(Duration.ofMillis(50), Duration.ofMillis(10)),
                "latencyP99 must be at least the latency (PT0.05S), got PT0.01S");
        assertRejected(
                () -> FaultSettings.none().withLatency(Duration.ZERO, Duration.ofMillis(10)),
                "latencyP99 needs a positive latency (the median) to spread around");
        assertRejected(
                () -> FaultSettings.none().withNotFoundRate(1.5), "notFoundRate must be between 0 and 1, got 1.5");
        assertRejected(
                () -> FaultSettings.none().withErrorRate(0.6).withMalformedRate(0.6),
                "the fault rates must add up to at most 1, got 1.2");
        assertRejected(
                () -> FaultSettings.none().withStalls(0.1, Duration.ZERO), "stallRate needs a positive stallTime");
        assertRejected(
                () -> new Outage(Duration.ofSeconds(-1), Duration.ZERO, Outage.Kind.ERRORS),
                "an outage needs a start and a length of zero or more, got after PT-1S, length PT0S");
    }

    private static void assertRejected(Runnable construction, String message) {
        assertThatThrownBy(construction::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
