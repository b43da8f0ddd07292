package io.lapse.puller.reading;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class EvenReadingTest {

    private static final TopicPartition P0 = new TopicPartition("expired", 0);
    private static final TopicPartition P1 = new TopicPartition("expired", 1);
    private static final TopicPartition P2 = new TopicPartition("expired", 2);
    private static final List<TopicPartition> ALL = List.of(P0, P1, P2);

    private final AtomicLong now = new AtomicLong();
    private final EvenReading even = new EvenReading(Duration.ofSeconds(1), Duration.ofSeconds(2), now::get);

    @Test
    void aPartitionReadMoreThanTheSlackAheadOfTheOneFurthestBehindIsHeldBack() {
        even.read(P0, 10_000);
        even.read(P1, 11_500);
        even.read(P2, 10_900);
        assertThat(even.ahead(ALL, lags(5, 5, 5))).containsExactly(P1);
    }

    @Test
    void aPartitionCaughtUpHoldsNoOneBack() {
        even.read(P0, 10_000);
        even.read(P1, 20_000);
        even.read(P2, 20_500);
        assertThat(even.ahead(ALL, lags(0, 5, 5))).isEmpty();
    }

    @Test
    void thePartitionFurthestBehindIsNeverHeldSoReadingGoesOn() {
        even.read(P0, 10_000);
        even.read(P1, 50_000);
        even.read(P2, 90_000);
        assertThat(even.ahead(ALL, lags(5, 5, 5))).containsExactlyInAnyOrder(P1, P2);
    }

    @Test
    void aPartitionNotReadYetIsWaitedForUntilItYieldsOrGoesStale() {
        even.read(P0, 10_000);
        even.read(P1, 10_100);
        // P2's lag is unknown until its first fetch: the others wait for its first records
        assertThat(even.ahead(ALL, lags(5, 5, -1))).containsExactlyInAnyOrder(P0, P1);
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(even.ahead(ALL, lags(5, 5, -1))).isEmpty();
    }

    @Test
    void aPartitionThatYieldsNothingWhileReadableIsNotWaitedFor() {
        even.read(P0, 10_000);
        even.read(P1, 30_000);
        // a lag of 1 that never comes (a transaction's marker): after 2 s P0 no longer holds P1 back
        assertThat(even.ahead(List.of(P0, P1), lags(1, 5, 0))).containsExactly(P1);
        now.addAndGet(Duration.ofMillis(2_100).toNanos());
        even.read(P1, 30_100);
        assertThat(even.ahead(List.of(P0, P1), lags(1, 5, 0))).isEmpty();
    }

    @Test
    void aPartitionReadableAgainAfterAPauseIsWaitedForAfresh() {
        even.read(P0, 10_000);
        even.read(P1, 30_000);
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        // every partition was paused (upstream full) and is read again now: P0's silence was the pause's
        even.readable(List.of(P0, P1));
        assertThat(even.ahead(List.of(P0, P1), lags(5, 5, 0))).containsExactly(P1);
    }

    private static ToLongFunction<TopicPartition> lags(long p0, long p1, long p2) {
        Map<TopicPartition, Long> lags = Map.of(P0, p0, P1, p1, P2, p2);
        return lags::get;
    }
}
