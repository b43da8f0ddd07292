package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.time.SettableClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PushRoundsTest {

    private static final long MS = 1_000_000;

    private final Fleet fleet = new Fleet(SettableClock.at(0));
    private final AtomicInteger roundsBegun = new AtomicInteger();
    private final PushRounds rounds = new PushRounds(fleet, Duration.ofMillis(100), roundsBegun::incrementAndGet, 0);

    @Test
    void eachOrderFallsDueAtItsPhaseOfEveryInterval() {
        List<String> ids = fleet.startMany(4, "o-"); // phases 0.618, 0.236, 0.854, 0.472

        assertThat(rounds.due(0)).isEmpty();
        assertThat(roundsBegun).hasValue(1);
        assertThat(rounds.nextDueAt()).isEqualTo(23_606_797L);
        assertThat(idsDue(50 * MS)).containsExactly(ids.get(1), ids.get(3));
        assertThat(idsDue(99 * MS)).containsExactly(ids.get(0), ids.get(2));
        assertThat(rounds.nextDueAt()).isEqualTo(100 * MS);

        assertThat(idsDue(130 * MS)).containsExactly(ids.get(1));
        assertThat(roundsBegun).hasValue(2);
    }

    @Test
    void ordersStartedDuringARoundJoinTheNextOne() {
        String first = fleet.startMany(1, "o-").get(0);
        assertThat(idsDue(99 * MS)).containsExactly(first);

        String second = fleet.startMany(1, "o-").get(0);
        assertThat(idsDue(99 * MS)).isEmpty();
        assertThat(idsDue(199 * MS)).containsExactlyInAnyOrder(first, second);
    }

    @Test
    void afterAStallTheNextRoundStartsAfreshInsteadOfCatchingUp() {
        fleet.startMany(3, "o-");
        assertThat(rounds.due(99 * MS)).hasSize(3);

        assertThat(rounds.due(5_000 * MS)).isEmpty();
        assertThat(roundsBegun).hasValue(2);
        assertThat(rounds.due(5_099 * MS)).hasSize(3);
        assertThat(rounds.due(5_100 * MS)).isEmpty();
        assertThat(roundsBegun).hasValue(3);
    }

    @Test
    void withATickTheOrdersOfOneTickFallDueTogetherAtItsEnd() {
        PushRounds ticked =
                new PushRounds(fleet, Duration.ofMillis(100), Duration.ofMillis(25), roundsBegun::incrementAndGet, 0);
        List<String> ids = fleet.startMany(4, "o-"); // phases 0.618, 0.236, 0.854, 0.472

        assertThat(ticked.due(0)).isEmpty();
        assertThat(ticked.nextDueAt()).isEqualTo(25 * MS);
        assertThat(ticked.due(24 * MS)).isEmpty();
        assertThat(ticked.due(25 * MS)).extracting(order -> order.id).containsExactly(ids.get(1));
        assertThat(ticked.nextDueAt()).isEqualTo(50 * MS);
        assertThat(ticked.due(74 * MS)).extracting(order -> order.id).containsExactly(ids.get(3));
        assertThat(ticked.nextDueAt()).isEqualTo(75 * MS);
        assertThat(ticked.due(75 * MS)).extracting(order -> order.id).containsExactly(ids.get(0));
        assertThat(ticked.nextDueAt()).isEqualTo(100 * MS);
        assertThat(ticked.due(100 * MS)).extracting(order -> order.id).containsExactly(ids.get(2));
        assertThat(ticked.due(100 * MS)).isEmpty();
        assertThat(ticked.nextDueAt()).isEqualTo(125 * MS);
    }

    private List<String> idsDue(long nowNanos) {
        return rounds.due(nowNanos).stream().map(order -> order.id).toList();
    }
}
