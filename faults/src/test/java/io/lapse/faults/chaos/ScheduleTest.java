package io.lapse.faults.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScheduleTest {

    private static final Duration LENGTH = Duration.ofMinutes(30);
    private static final List<String> INSTANCES = ChaosLab.instanceNames();

    @Test
    void theSameSeedDrawsTheSameScheduleAndAnotherSeedAnother() {
        Schedule once = Schedule.draw(42, LENGTH, EnumSet.allOf(FaultKind.class), INSTANCES);
        Schedule again = Schedule.draw(42, LENGTH, EnumSet.allOf(FaultKind.class), INSTANCES);
        Schedule other = Schedule.draw(43, LENGTH, EnumSet.allOf(FaultKind.class), INSTANCES);

        assertThat(again.strikes()).isEqualTo(once.strikes());
        assertThat(other.strikes()).isNotEqualTo(once.strikes());
    }

    @Test
    void everyKindStrikesInALongRunEveryFewSecondsWithinItsBounds() {
        Schedule schedule = Schedule.draw(7, LENGTH, EnumSet.allOf(FaultKind.class), INSTANCES);

        assertThat(schedule.strikes()).extracting(Strike::kind).containsAll(EnumSet.allOf(FaultKind.class));
        assertThat(schedule.strikes().size()).isBetween((int) (LENGTH.toMillis() / Schedule.LONGEST_GAP), (int)
                (LENGTH.toMillis() / Schedule.SHORTEST_GAP));
        for (Strike strike : schedule.strikes()) {
            assertThat(strike.duration()).isBetween(strike.kind().shortest, strike.kind().longest);
            assertThat(strike.at()).isBetween(0L, LENGTH.toMillis());
        }
        assertThat(schedule.strikes())
                .filteredOn(s -> s.kind().target == FaultKind.Target.INSTANCE)
                .extracting(Strike::target)
                .containsAll(INSTANCES);
    }

    @Test
    void aShortRunStillMeetsEveryKind() {
        Schedule schedule = Schedule.draw(1, Duration.ofMinutes(3), EnumSet.allOf(FaultKind.class), INSTANCES);

        assertThat(schedule.strikes()).extracting(Strike::kind).containsAll(EnumSet.allOf(FaultKind.class));
    }

    @Test
    void faultsOverlapButNeverOnOneTargetWhileItIsBusy() {
        Schedule schedule = Schedule.draw(11, LENGTH, EnumSet.allOf(FaultKind.class), INSTANCES);
        Map<String, Long> busyUntil = new HashMap<>();
        int overlapping = 0;
        long lastEnd = 0;
        for (Strike strike : schedule.strikes()) {
            assertThat(strike.at())
                    .as("%s strikes %s while an earlier strike holds it", strike.kind(), strike.target())
                    .isGreaterThanOrEqualTo(busyUntil.getOrDefault(strike.target(), 0L));
            busyUntil.put(strike.target(), strike.at() + strike.duration() + strike.kind().busyAfter);
            if (strike.at() < lastEnd) {
                overlapping++;
            }
            lastEnd = Math.max(lastEnd, strike.at() + strike.duration());
        }
        assertThat(overlapping).as("strikes that begin while another lasts").isGreaterThan(10);
    }

    @Test
    void onlyTheChosenKindsStrike() {
        Set<FaultKind> chosen = FaultKind.parse(List.of("kill", "link"));
        Schedule schedule = Schedule.draw(5, LENGTH, chosen, INSTANCES);

        assertThat(chosen).containsExactlyInAnyOrder(FaultKind.KILL, FaultKind.BROKER_STALL, FaultKind.REDIS_STALL);
        assertThat(schedule.strikes()).extracting(Strike::kind).containsOnly(chosen.toArray(FaultKind[]::new));
    }

    @Test
    void anUnknownKindIsRefusedNamingThoseThereAre() {
        assertThatThrownBy(() -> FaultKind.parse(List.of("kil")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'kil'")
                .hasMessageContaining("freeze")
                .hasMessageContaining("upstream-401");
    }
}
