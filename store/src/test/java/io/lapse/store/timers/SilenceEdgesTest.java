package io.lapse.store.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.store.RedisConnectionExtension;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two edges of issue 41 in both timer modes on a real Redis: a silence that a newer status ends after its deadline,
 * before anything fired, still fires once with its own deadline; a finished order that keeps pushing keeps its mark.
 */
@Tag("slow")
class SilenceEdgesTest {

    private static final long TTL = 10_000;
    private static final long FAR_FUTURE = Long.MAX_VALUE / 2;
    private static final String ORDER = "order-41";

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    private static TimerStore store(String mode) {
        redis.connection().async().flushall().toCompletableFuture().join();
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults()
                .with(Map.of("timer.ttl", TTL + "ms", "timer.repeat", "5000ms", "timer.mode", mode)));
        TimerStore store = TimerStore.of(redis.connection(), new TimerKeys("edges", settings.shards()), settings);
        new RedisEpochs(redis.connection(), store.keys()).stamp("edges").join();
        return store;
    }

    private static List<Claim> claim(TimerStore store, long watermark) {
        return store.claim(store.keys().shardOf(ORDER), watermark).join().claims();
    }

    /** In ttl mode a claim needs Redis's announcement of the trigger first: claims until one comes. */
    private static List<Claim> claimSoon(TimerStore store) {
        return await().atMost(Duration.ofSeconds(10)).until(() -> claim(store, FAR_FUTURE), c -> !c.isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void aSilenceEndedAfterItsDeadlineFiresOnceWithItsOwnDeadlineThenTheNewerStatusTakesOver(String mode)
            throws Exception {
        TimerStore store = store(mode);
        long spoke = System.currentTimeMillis() - 60_000;
        long deadline = spoke + TTL;
        long spokeAgain = deadline + 3_000;
        try (AutoCloseable listening = store.listen(shard -> {})) {
            store.apply(List.of(OrderUpdate.active(ORDER, spoke))).join();
            // nothing fired while the watermark held the deadline back (a frozen ingest); then the order spoke again
            assertThat(claim(store, deadline - 1)).isEmpty();
            store.apply(List.of(OrderUpdate.active(ORDER, spokeAgain))).join();
            assertThat(store.inspect(List.of(ORDER)).join().get(ORDER).hasNewsSince(spoke))
                    .as("the newer status is known, for the puller")
                    .isTrue();

            assertThat(claim(store, deadline - 1))
                    .as("never before the watermark passed the deadline")
                    .isEmpty();
            List<Claim> fired = claimSoon(store);
            assertThat(fired).singleElement().satisfies(claim -> {
                assertThat(claim.deadline()).isEqualTo(deadline);
                assertThat(claim.lastSeen()).isEqualTo(spoke);
                assertThat(claim.attempt()).isEqualTo(1);
            });
            assertThat(store.acknowledge(store.keys().shardOf(ORDER), fired).join())
                    .isEqualTo(1);

            OrderView after = store.inspect(List.of(ORDER)).join().get(ORDER);
            assertThat(after.phase()).isEqualTo(OrderView.Phase.ARMED);
            assertThat(after.lastSeen()).hasValue(spokeAgain);
            assertThat(after.attempt()).isZero();
            assertThat(after.dueAt()).hasValue(spokeAgain + TTL);
            List<Claim> next = claimSoon(store);
            assertThat(next)
                    .as("the next expiry counts from the status that ended the silence")
                    .singleElement()
                    .satisfies(claim -> {
                        assertThat(claim.deadline()).isEqualTo(spokeAgain + TTL);
                        assertThat(claim.attempt()).isEqualTo(1);
                    });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void aStatusBeforeTheDeadlineEndsNoSilence(String mode) throws Exception {
        TimerStore store = store(mode);
        long spoke = System.currentTimeMillis() - 60_000;
        long spokeAgain = spoke + TTL; // at the deadline itself: in time
        try (AutoCloseable listening = store.listen(shard -> {})) {
            store.apply(List.of(OrderUpdate.active(ORDER, spoke))).join();
            store.apply(List.of(OrderUpdate.active(ORDER, spokeAgain))).join();
            assertThat(claimSoon(store))
                    .singleElement()
                    .satisfies(claim -> assertThat(claim.deadline()).isEqualTo(spokeAgain + TTL));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void aStatusAfterTheEndKeepsTheMarkForTheRetentionFromThen(String mode) {
        TimerStore store = store(mode);
        long now = System.currentTimeMillis();
        store.apply(List.of(OrderUpdate.active(ORDER, now - 5_000))).join();
        store.apply(List.of(OrderUpdate.terminal(ORDER, now - 4_000))).join();
        long endedAt = endedScore(store);
        store.apply(List.of(OrderUpdate.active(ORDER, endedAt + 60_000))).join();

        assertThat(endedScore(store)).isEqualTo(endedAt + 60_000);
        assertThat(store.inspect(List.of(ORDER)).join().get(ORDER).phase()).isEqualTo(OrderView.Phase.ENDED);
    }

    private static long endedScore(TimerStore store) {
        Double score = redis.connection()
                .async()
                .zscore(store.keys().ended(store.keys().shardOf(ORDER)), ORDER)
                .toCompletableFuture()
                .join();
        return score.longValue();
    }
}
