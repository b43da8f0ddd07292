package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SimulatorSettingsTest {

    @Test
    void theDemoChurnsAThousandOrdersPushingEveryOneAndAHalfSeconds() {
        SimulatorSettings demo = SimulatorSettings.demo();

        assertThat(demo.orders()).isEqualTo(1_000);
        assertThat(demo.pushInterval()).isEqualTo(Duration.ofMillis(1_500));
        assertThat(demo.silentFraction()).isEqualTo(0.05);
        assertThat(demo.finishFraction()).isEqualTo(0.02);
        assertThat(demo.runsScenario()).isTrue();
        assertThat(SimulatorSettings.manual(Duration.ofMillis(200)).runsScenario())
                .isFalse();
    }

    @Test
    void invalidSettingsAreRejectedWithTheReason() {
        Duration second = Duration.ofSeconds(1);
        assertRejected(
                () -> new SimulatorSettings(-1, second, 0, 0, 0, 0, Duration.ZERO),
                "orders must be 0 (no churn) or more, got -1");
        assertRejected(
                () -> new SimulatorSettings(1, Duration.ZERO, 0, 0, 0, 0, Duration.ZERO),
                "pushInterval must be at least 1 ms, got PT0S");
        assertRejected(
                () -> new SimulatorSettings(1, second, 1.2, 0, 0, 0, Duration.ZERO),
                "silentFraction must be between 0 and 1, got 1.2");
        assertRejected(
                () -> new SimulatorSettings(1, second, 0, Double.NaN, 0, 0, Duration.ZERO),
                "finishFraction must be between 0 and 1, got NaN");
        assertRejected(
                () -> new SimulatorSettings(1, second, 0.6, 0.6, 0, 0, Duration.ZERO),
                "silentFraction + finishFraction must be at most 1, got 1.2");
        assertRejected(
                () -> new SimulatorSettings(1, second, 0, 0, 70_000, 0, Duration.ZERO),
                "apiPort must be a TCP port, or 0 for any free one, got 70000");
        assertRejected(
                () -> new SimulatorSettings(1, second, 0, 0, 0, -0.1, Duration.ZERO),
                "errorRate must be between 0 and 1, got -0.1");
        assertRejected(
                () -> new SimulatorSettings(1, second, 0, 0, 0, 0, null), "latency must be zero or positive, got null");
        assertRejected(
                () -> new SimulatorSettings(1, second, 0, 0, 0, null, Outage.none()),
                "faults and outage must be given (FaultSettings.none(), Outage.none())");
    }

    private static void assertRejected(Runnable construction, String message) {
        assertThatThrownBy(construction::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
