package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.time.SettableClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RedisClockSkewTest {

    private static final long NOW = 1_800_000_000_000L;

    @Test
    void theSkewIsIngestsClockAtTheMiddleOfTheRoundTripLessRedisTime() {
        RedisClockSkew skew = new RedisClockSkew(() -> new CompletableFuture<>(), SettableClock.at(NOW), 100);

        skew.observed(NOW, NOW + 40, NOW + 20 - 2_000);

        assertThat(skew.millis()).as("ingest runs 2 s ahead").isEqualTo(2_000);
        skew.observed(NOW, NOW + 40, NOW + 20 + 300);
        assertThat(skew.millis()).as("ingest runs 300 ms behind").isEqualTo(-300);
    }

    @Test
    void measuresOncePerIntervalWithoutWaitingForTheAnswer() {
        SettableClock clock = SettableClock.at(NOW);
        AtomicInteger asked = new AtomicInteger();
        RedisClockSkew skew = new RedisClockSkew(
                () -> {
                    asked.incrementAndGet();
                    return CompletableFuture.completedFuture(NOW - 5_000);
                },
                clock,
                100);

        skew.askIfDue();
        skew.askIfDue();
        clock.advance(Duration.ofMillis(RedisClockSkew.INTERVAL_MS));
        skew.askIfDue();

        assertThat(asked).hasValue(2);
        assertThat(skew.millis()).isEqualTo(RedisClockSkew.INTERVAL_MS + 5_000);
    }
}
