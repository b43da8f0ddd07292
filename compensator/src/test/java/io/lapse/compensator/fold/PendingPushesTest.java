package io.lapse.compensator.fold;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.event.OrderUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A round's pushes handed to the mirror as at most two updates per order leave it as the pushes one by one would. */
class PendingPushesTest {

    private static final long T = 1_763_780_000_000L;
    private static final Duration TTL = Duration.ofSeconds(90);

    @Test
    void aRoundsPushesLeaveEveryOrderAsThePushesOneByOneWouldWhateverTheOrderKnewBefore() {
        Random random = new Random(20261129);
        for (int run = 0; run < 20_000; run++) {
            OrderState before = someState(random);
            List<OrderUpdate> pushes = new ArrayList<>();
            for (int i = random.nextInt(8); i > 0; i--) {
                long ts = T + random.nextInt(10) * 1_000L;
                pushes.add(random.nextInt(4) == 0 ? OrderUpdate.terminal("o1", ts) : OrderUpdate.active("o1", ts));
            }
            PendingPushes pending = new PendingPushes(TTL);
            pushes.forEach(pending::add);
            List<OrderUpdate> handed = statuses(pending);

            assertThat(handed)
                    .as("at most the newest active before the end, the newest terminal and the newest active after it")
                    .hasSizeLessThanOrEqualTo(3);
            assertThat(fold(before, handed)).as("%s after %s", before, pushes).isEqualTo(fold(before, pushes));
        }
    }

    @Test
    void anOrderThatPushedNothingSinceTheLastRoundHasNothingToHandOver() {
        PendingPushes pending = new PendingPushes(TTL);
        pending.add(OrderUpdate.active("live", T));
        pending.add(OrderUpdate.active("quiet", T));
        pending.drain(input -> {});

        pending.add(OrderUpdate.active("live", T + 15_000));
        List<OrderUpdate> handed = statuses(pending);

        assertThat(handed).containsExactly(OrderUpdate.active("live", T + 15_000));
        assertThat(pending.size()).isZero();
    }

    @Test
    void anActiveStatusAfterTheEndIsHandedOverAfterItAndTheEndIsHandedOverOnce() {
        PendingPushes pending = new PendingPushes(TTL);
        pending.add(OrderUpdate.active("o1", T));
        pending.add(OrderUpdate.terminal("o1", T + 1_000));
        pending.add(OrderUpdate.active("o1", T + 2_000));
        List<OrderUpdate> handed = statuses(pending);
        handed.addAll(statuses(pending));

        assertThat(handed)
                .containsExactly(
                        OrderUpdate.active("o1", T),
                        OrderUpdate.terminal("o1", T + 1_000),
                        OrderUpdate.active("o1", T + 2_000));
    }

    @Test
    void aPushMoreThanTheTtlAfterTheOneBeforeItIsHandedOverAsASilenceBeforeTheStatusesInTheRoundOrAcrossRounds() {
        PendingPushes pending = new PendingPushes(TTL);
        pending.add(OrderUpdate.active("o1", T));
        assertThat(drain(pending))
                .as("the first push the folder reads of an order: a silence since whatever the mirror knows")
                .containsExactly(new MirrorInput.Resumed(OrderUpdate.active("o1", T), T));

        assertThat(pending.add(OrderUpdate.active("o1", T + 15_000)))
                .as("within the ttl")
                .isFalse();
        assertThat(pending.add(OrderUpdate.active("o1", T + 106_000)))
                .as("ended a silence")
                .isTrue();
        assertThat(pending.add(OrderUpdate.active("o1", T + 120_000))).isFalse();
        assertThat(drain(pending))
                .containsExactly(
                        new MirrorInput.Silence("o1", T + 15_000, T + 106_000),
                        new MirrorInput.Status(OrderUpdate.active("o1", T + 120_000)));

        assertThat(pending.add(OrderUpdate.terminal("o1", T + 211_000))).isTrue();
        assertThat(drain(pending))
                .as("across rounds, and ended by a terminal push")
                .containsExactly(
                        new MirrorInput.Silence("o1", T + 120_000, T + 211_000),
                        new MirrorInput.Status(OrderUpdate.terminal("o1", T + 211_000)));
    }

    @Test
    void pushesWithinTheTtlOfEachOtherAreNoSilenceNorIsOneAPushReadLateWithinTheTtlTakesBack() {
        PendingPushes pending = new PendingPushes(TTL);
        pending.add(OrderUpdate.active("o1", T));
        drain(pending);
        for (long ts = T + 15_000; ts <= T + 300_000; ts += 90_000) {
            pending.add(OrderUpdate.active("o1", ts));
        }
        pending.add(OrderUpdate.active("o2", T));
        drain(pending);
        pending.add(OrderUpdate.active("o2", T + 100_000));
        pending.add(OrderUpdate.active("o2", T + 60_000)); // stamped earlier, read later

        assertThat(drain(pending))
                .as("o1 pushed every 90 s, o2's silence was not one")
                .containsExactly(new MirrorInput.Status(OrderUpdate.active("o2", T + 100_000)));
        pending.add(OrderUpdate.active("o3", T));
        pending.add(OrderUpdate.active("o3", T + 10_000));
        assertThat(drain(pending))
                .as("an order the folder read no push of before: its newest status, and its first push")
                .containsExactly(new MirrorInput.Resumed(OrderUpdate.active("o3", T + 10_000), T));
    }

    private static List<MirrorInput> drain(PendingPushes pending) {
        List<MirrorInput> handed = new ArrayList<>();
        pending.drain(handed::add);
        return handed;
    }

    private static List<OrderUpdate> statuses(PendingPushes pending) {
        List<OrderUpdate> handed = new ArrayList<>();
        pending.drain(input -> {
            if (input instanceof MirrorInput.Status status) {
                handed.add(status.update());
            } else if (input instanceof MirrorInput.Resumed resumed) {
                handed.add(resumed.update());
            }
        });
        return handed;
    }

    private static OrderState fold(OrderState state, List<OrderUpdate> updates) {
        OrderState current = state;
        for (OrderUpdate update : updates) {
            current = OrderState.next(current, update);
        }
        return current;
    }

    private static OrderState someState(Random random) {
        long seen = T + random.nextInt(10) * 1_000L;
        return switch (random.nextInt(5)) {
            case 0 -> null;
            case 1 -> OrderState.active(seen);
            case 2 ->
                new OrderState(OrderState.Phase.ACTIVE, seen, 2, seen + 90_000, seen + 91_000, random.nextBoolean(), 0);
            case 3 -> new OrderState(OrderState.Phase.ENDED, seen, 0, 0, 0, false, seen - random.nextInt(3) * 1_000L);
            default -> new OrderState(OrderState.Phase.GONE, seen, 0, 0, 0, false, seen + 1_000);
        };
    }
}
