package io.lapse.bench.lateness;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.bench.harness.ExpiryCollector.Expiry;
import io.lapse.bench.load.OrderIds;
import io.lapse.bench.load.PushSchedule;
import java.time.Duration;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

class LatenessTallyTest {

    private static final long TTL = 20_000;
    private static final long GRACE = 10_000;
    // 1,000 orders, every 100th silent: orders 0, 100, ..., 900
    private final PushSchedule schedule = new PushSchedule(1_000, Duration.ofSeconds(15), 0.01, Duration.ofSeconds(20));
    private final IntToLongFunction lastSent = order -> 1_000_000L + order;

    @Test
    void judgesEachExpiryAgainstTheDeadlineOfTheLastPush() {
        List<Expiry> expiries = List.of(
                expiry(0, 5, 3), // on time
                expiry(100, 1_500, 1_400), // late by more than a second
                expiry(100, 1_600, 1_500), // the same expiry again: counted once
                expiry(200, GRACE + 1, 5), // after the grace: missing
                expiry(1, 4, 2), // an order that kept pushing: false
                new Expiry(OrderIds.of(300), deadline(300) - 15_000, 1, 0, deadline(300) - 14_000), // older push: false
                new Expiry("", 0, 0, 0, 0)); // not a TimerExpired: false
        LatenessTally.Figures figures = LatenessTally.tally(schedule, lastSent, TTL, GRACE, expiries);
        assertThat(figures.expected()).isEqualTo(10);
        assertThat(figures.fired()).isEqualTo(2);
        assertThat(figures.missing()).isEqualTo(8);
        assertThat(figures.lateOverSecond()).isEqualTo(1);
        assertThat(figures.falseExpiries()).isEqualTo(3);
        assertThat(figures.lateness().getMaxValue()).isEqualTo(1_500);
        assertThat(figures.claimDelay().getMaxValue()).isEqualTo(1_400);
    }

    @Test
    void lastDeadlineIsTheLatestOfTheSilentOrders() {
        assertThat(LatenessTally.lastDeadline(schedule, lastSent, TTL)).isEqualTo(deadline(900));
    }

    private Expiry expiry(int order, long lateMillis, long claimedAfterMillis) {
        long deadline = deadline(order);
        return new Expiry(OrderIds.of(order), deadline, 1, deadline + claimedAfterMillis, deadline + lateMillis);
    }

    private long deadline(int order) {
        return lastSent.applyAsLong(order) + TTL;
    }
}
