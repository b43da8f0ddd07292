package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.simulator.Fleet.Mode;
import io.lapse.time.SettableClock;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChurnTest {

    private static final int ORDERS = 2_000;
    private static final SimulatorSettings SETTINGS =
            new SimulatorSettings(ORDERS, Duration.ofMillis(1_500), 0.05, 0.02, 0, 0, Duration.ZERO);
    private static final long ROUNDS_PER_HORIZON = Churn.HORIZON.toMillis() / 1_500;

    private final SettableClock clock = SettableClock.at(1_763_780_000_000L);
    private final Fleet fleet = new Fleet(clock);
    private final Churn scenario = new Churn(fleet, SETTINGS, new SplittableRandom(42));

    @Test
    void withinTheHorizonTheSilentAndFinishedSharesLandNearTheirTargetsAndTheFleetKeepsItsSize() {
        for (long round = 0; round < ROUNDS_PER_HORIZON; round++) {
            step();
            assertThat(active()).isEqualTo(ORDERS);
        }

        assertThat(fleet.count(Mode.SILENT)).isBetween((int) (ORDERS * 0.04), (int) (ORDERS * 0.06));
        assertThat(fleet.count(Mode.FINISHED)).isBetween((int) (ORDERS * 0.015), (int) (ORDERS * 0.025));
    }

    @Test
    void silentOrdersStaySilentForTheSilenceThenFinishOrResume() {
        for (int round = 0; round < 10; round++) {
            step();
        }
        List<String> silent = fleet.ids(Mode.SILENT);
        assertThat(silent).hasSizeGreaterThan(5);

        long silenceRounds = Churn.SILENCE.toMillis() / 1_500;
        for (long round = 0; round < silenceRounds - 10; round++) {
            step();
        }
        assertThat(fleet.ids(Mode.SILENT)).containsAll(silent);
        for (int round = 0; round < 10; round++) {
            step();
        }

        assertThat(silent).noneMatch(id -> fleet.ids(Mode.SILENT).contains(id));
        assertThat(silent).anyMatch(id -> fleet.ids(Mode.FINISHED).contains(id));
        assertThat(silent).anyMatch(id -> fleet.ids(Mode.PUSHING).contains(id));
        assertThat(active()).isEqualTo(ORDERS);
    }

    @Test
    void theSameSeedPlaysTheSameScenario() {
        Fleet other = new Fleet(clock);
        Churn replay = new Churn(other, SETTINGS, new SplittableRandom(42));
        for (int round = 0; round < 20; round++) {
            scenario.step();
            replay.step();
        }

        assertThat(other.ids(Mode.SILENT)).containsExactlyInAnyOrderElementsOf(fleet.ids(Mode.SILENT));
        assertThat(other.ids(Mode.FINISHED)).containsExactlyInAnyOrderElementsOf(fleet.ids(Mode.FINISHED));
    }

    private void step() {
        scenario.step();
        clock.advance(SETTINGS.pushInterval());
    }

    private int active() {
        return fleet.count(Mode.PUSHING) + fleet.count(Mode.SILENT);
    }
}
