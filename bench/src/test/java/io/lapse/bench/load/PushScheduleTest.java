package io.lapse.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PushScheduleTest {

    private static final Duration CADENCE = Duration.ofSeconds(15);

    @Test
    void everyOrderPushesOncePerCadence() {
        PushSchedule schedule = new PushSchedule(1_000, CADENCE, 0.01, Duration.ofSeconds(20));
        long firstCadence = schedule.dueBy(CADENCE.toNanos() - 1);
        Set<Integer> orders = new HashSet<>();
        LongStream.range(0, firstCadence).forEach(i -> orders.add(schedule.orderOf(i)));
        assertThat(firstCadence).isEqualTo(1_000);
        assertThat(orders).hasSize(1_000);
        assertThat(schedule.pushesPerSecond()).isCloseTo(66.67, offset(0.01));
    }

    @Test
    void pushesAreSpreadEvenlyOverTheCadence() {
        PushSchedule schedule = new PushSchedule(10_000, CADENCE, 0.01, Duration.ofSeconds(20));
        long tenth = CADENCE.toNanos() / 10;
        for (int k = 0; k < 30; k++) {
            long inWindow = schedule.dueBy((k + 1) * tenth - 1) - schedule.dueBy(k * tenth - 1);
            assertThat(inWindow).as("window %d", k).isBetween(999L, 1_001L);
        }
    }

    @Test
    void dueAtIsWhenDueByFirstCountsThePush() {
        PushSchedule schedule = new PushSchedule(7_919, CADENCE, 0, Duration.ofSeconds(20));
        for (long index : new long[] {0, 1, 2, 7_918, 7_919, 123_456}) {
            long at = schedule.dueAt(index);
            assertThat(schedule.dueBy(at)).isGreaterThan(index);
            assertThat(at == 0 ? 0 : schedule.dueBy(at - 1)).isLessThanOrEqualTo(index);
        }
    }

    @Test
    void onlySilentOrdersSkipAndOnlyFromTheSilenceOn() {
        Duration silenceStart = Duration.ofSeconds(20);
        PushSchedule schedule = new PushSchedule(10_000, CADENCE, 0.01, silenceStart);
        assertThat(schedule.silentOrders()).isEqualTo(100);
        long end = schedule.dueBy(silenceStart.plus(CADENCE).plus(CADENCE).toNanos());
        for (long i = 0; i < end; i++) {
            boolean afterStart = schedule.dueAt(i) >= silenceStart.toNanos();
            assertThat(schedule.skips(i))
                    .as("push %d", i)
                    .isEqualTo(afterStart && schedule.isSilent(schedule.orderOf(i)));
        }
    }

    @Test
    void silencesSpreadOverOneCadence() {
        Duration silenceStart = Duration.ofSeconds(20);
        PushSchedule schedule = new PushSchedule(10_000, CADENCE, 0.01, silenceStart);
        Set<Integer> silenced = new HashSet<>();
        long[] firstSkipTenths = new long[10];
        long from = schedule.dueBy(silenceStart.toNanos() - CADENCE.toNanos());
        for (long i = from; silenced.size() < schedule.silentOrders(); i++) {
            if (schedule.skips(i) && silenced.add(schedule.orderOf(i))) {
                long sinceStart = schedule.dueAt(i) - silenceStart.toNanos();
                assertThat(sinceStart).isBetween(0L, CADENCE.toNanos());
                firstSkipTenths[(int) (sinceStart * 10 / CADENCE.toNanos())]++;
            }
        }
        assertThat(firstSkipTenths).containsOnly(10L);
        assertThat(schedule.silenceCompleteNanos())
                .isEqualTo(silenceStart.plus(CADENCE).toNanos());
    }

    @Test
    void noOrderIsSilentWhenTheFractionIsZero() {
        PushSchedule schedule = new PushSchedule(100, CADENCE, 0, Duration.ZERO);
        assertThat(schedule.silentOrders()).isZero();
        assertThat(LongStream.range(0, 1_000).noneMatch(schedule::skips)).isTrue();
    }
}
