package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.event.StatusPush;
import io.lapse.simulator.Fleet.Mode;
import io.lapse.time.SettableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FleetTest {

    private static final long START = 1_763_780_000_000L;

    private final SettableClock clock = SettableClock.at(START);
    private final Fleet fleet = new Fleet(clock);

    @Test
    void aPushingOrderPushesAChargingStatusWithTheClocksTimeAndRisingSoc() {
        fleet.start("o-1");
        StatusPush first = onlyPush();
        clock.advance(Duration.ofMinutes(10));
        StatusPush later = onlyPush();

        assertThat(first.orderId()).isEqualTo("o-1");
        assertThat(first.status()).isEqualTo("CHARGING");
        assertThat(first.ts()).isEqualTo(START);
        assertThat(later.ts()).isEqualTo(START + Duration.ofMinutes(10).toMillis());
        assertThat((int) later.payload().get("soc"))
                .isGreaterThan((int) first.payload().get("soc"));
        assertThat((double) later.payload().get("power")).isPositive();
    }

    @Test
    void aSilentOrderStopsBeingPushedButTheApiStillAnswersAFreshStatus() {
        fleet.start("o-1");
        fleet.silence("o-1");
        clock.advance(Duration.ofMinutes(5));

        assertThat(takeAllPushes()).isEmpty();
        assertThat(fleet.current("o-1")).hasValueSatisfying(status -> {
            assertThat(status.status()).isEqualTo("CHARGING");
            assertThat(status.ts()).isEqualTo(clock.millis());
        });

        fleet.resume("o-1");
        assertThat(onlyPush().ts()).isEqualTo(clock.millis());
    }

    @Test
    void aFinishedOrderPushesExactlyOneFinishedStatusAndTheApiKeepsAnsweringIt() {
        fleet.start("o-1");
        clock.advance(Duration.ofSeconds(30));
        fleet.finish("o-1");
        long finishedAt = clock.millis();
        clock.advance(Duration.ofMinutes(1));

        StatusPush last = onlyPush();
        assertThat(last.status()).isEqualTo("FINISHED");
        assertThat(last.ts()).isEqualTo(finishedAt);
        assertThat(takeAllPushes()).isEmpty();
        assertThat(fleet.awaitingPush()).isEmpty();
        assertThat(fleet.current("o-1")).map(StatusPush::status).hasValue("FINISHED");
        assertThat(fleet.current("o-1")).map(StatusPush::ts).hasValue(finishedAt);
        assertThatThrownBy(() -> fleet.resume("o-1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("finished");
    }

    @Test
    void aSilentOrderThatFinishesLosesItsFinalPushTooSoOnlyAPullTellsTheEnd() {
        fleet.start("o-1");
        fleet.silence("o-1");
        fleet.finish("o-1");

        assertThat(takeAllPushes()).isEmpty();
        assertThat(fleet.current("o-1")).map(StatusPush::status).hasValue("FINISHED");
    }

    @Test
    void anUnknownOrderHasNoStatusAndCannotBeSteered() {
        assertThat(fleet.current("nope")).isEmpty();
        assertThat(fleet.serve("nope")).isEmpty();
        assertThat(fleet.pullsServed("nope")).isZero();
        assertThatThrownBy(() -> fleet.silence("nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown order nope");
    }

    @Test
    void servedPullsAreCountedButLooksThroughCurrentAreNot() {
        fleet.start("o-1");
        fleet.current("o-1");
        fleet.serve("o-1");
        fleet.serve("o-1");

        assertThat(fleet.pullsServed("o-1")).isEqualTo(2);
    }

    @Test
    void ordersAreCountedByModeAndIdsMustBeValidAndUnique() {
        List<String> ids = fleet.startMany(4, "batch-");
        fleet.silence(ids.get(0));
        fleet.finish(ids.get(1));

        assertThat(ids).doesNotHaveDuplicates().allMatch(id -> id.startsWith("batch-"));
        assertThat(fleet.count(Mode.PUSHING)).isEqualTo(2);
        assertThat(fleet.count(Mode.SILENT)).isEqualTo(1);
        assertThat(fleet.count(Mode.FINISHED)).isEqualTo(1);
        assertThat(fleet.ids(Mode.SILENT)).containsExactly(ids.get(0));
        assertThatThrownBy(() -> fleet.start(ids.get(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exists already");
        assertThatThrownBy(() -> fleet.start("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> fleet.start("x".repeat(129))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void phasesSpreadAnyNumberOfOrdersEvenlyOverThePushInterval() {
        int n = 100;
        fleet.startMany(n, "o-");

        List<Double> phases =
                fleet.awaitingPush().stream().map(order -> order.phase).toList();
        double widestGap = 1 - phases.get(n - 1) + phases.get(0);
        for (int i = 1; i < n; i++) {
            widestGap = Math.max(widestGap, phases.get(i) - phases.get(i - 1));
        }
        assertThat(widestGap).isLessThan(3.0 / n);
    }

    @Test
    void ordersStartedWithFieldsCarryThemInEveryPushAndEveryAnswer() {
        List<String> ids = fleet.startMany(2, "cpo-", Map.of("operatorId", "north"));

        assertThat(takeAllPushes())
                .hasSize(2)
                .allSatisfy(push -> assertThat(push.payload()).containsEntry("operatorId", "north"));
        assertThat(fleet.current(ids.get(0)).orElseThrow().payload()).containsEntry("operatorId", "north");
    }

    @Test
    void aMissedPushIsLostAndTheNextIsSentAgain() {
        fleet.start("o-1");
        fleet.missPush("o-1");

        assertThat(takeAllPushes()).isEmpty();
        assertThat(fleet.ids(Mode.PUSHING)).containsExactly("o-1");
        clock.advance(Duration.ofSeconds(1));
        assertThat(onlyPush().ts()).isEqualTo(clock.millis());
    }

    private StatusPush onlyPush() {
        List<StatusPush> pushes = takeAllPushes();
        assertThat(pushes).hasSize(1);
        return pushes.get(0);
    }

    private List<StatusPush> takeAllPushes() {
        return fleet.awaitingPush().stream()
                .map(fleet::takePush)
                .flatMap(Optional::stream)
                .toList();
    }
}
