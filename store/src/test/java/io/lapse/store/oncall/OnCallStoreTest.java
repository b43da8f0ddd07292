package io.lapse.store.oncall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.store.RedisConnectionExtension;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.RedisTime;
import io.lapse.store.timers.Claim;
import io.lapse.store.timers.ManualFiring;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.ShardCensus;
import io.lapse.store.timers.TimerStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the on-call commands need of the store, in both timer modes, on a real Redis. */
@Tag("slow")
class OnCallStoreTest {

    private static final long TTL = 60_000;

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    @BeforeEach
    void emptyRedis() {
        redis.connection().async().flushall().toCompletableFuture().join();
    }

    private static TimerSettings settings(String mode) {
        return TimerSettings.from(ConfigSource.defaults()
                .with(Map.of(
                        "timer.ttl", TTL + "ms", "timer.max-attempts", "2", "timer.shards", "4", "timer.mode", mode)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void aWatchedOrderFiresNowAsManualAndCountsAsAnAttempt(String mode) {
        TimerSettings settings = settings(mode);
        TimerKeys keys = new TimerKeys("lapse", 4);
        TimerStore store = TimerStore.of(redis.connection(), keys, settings);
        ManualFiring firing = new ManualFiring(redis.connection(), keys, settings);
        long lastSeen = System.currentTimeMillis();
        store.apply(List.of(OrderUpdate.active("o-1", lastSeen))).join();

        ManualFiring.Result first = firing.claim("o-1").join();

        assertThat(first.outcome()).isEqualTo(ManualFiring.Outcome.CLAIMED);
        Claim claim = first.claim();
        assertThat(claim.source()).isEqualTo(TimerExpired.Source.MANUAL);
        assertThat(claim.lastSeen()).isEqualTo(lastSeen);
        assertThat(claim.attempt()).isEqualTo(1);
        assertThat(claim.deadline())
                .as("due now, not at lastSeen + ttl")
                .isEqualTo(claim.firedAt())
                .isLessThan(lastSeen + TTL);
        assertThat(firing.claim("o-1").join().outcome())
                .as("while its publish is in flight")
                .isEqualTo(ManualFiring.Outcome.LEASED);

        assertThat(firing.acknowledge(claim).join()).isTrue();
        OrderView view = store.inspect(List.of("o-1")).join().get("o-1");
        assertThat(view.phase()).isEqualTo(OrderView.Phase.FIRED);
        assertThat(view.attempt()).isEqualTo(1);

        Claim second = firing.claim("o-1").join().claim();
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.finalAttempt()).isTrue();
        firing.acknowledge(second).join();
        assertThat(store.inspect(List.of("o-1")).join().get("o-1").phase()).isEqualTo(OrderView.Phase.GIVEN_UP);
        // a manual claim's deadline is Redis's clock when it was made: one made in the same millisecond would be alike
        await().until(() -> RedisTime.now(redis.connection().async()).join() > second.deadline());

        Claim onceMore = firing.claim("o-1").join().claim();
        assertThat(onceMore.attempt())
                .as("a given-up order gets its final attempt again")
                .isEqualTo(2);
        assertThat(onceMore.deadline()).isGreaterThan(second.deadline());
        assertThat(firing.acknowledge(onceMore).join()).isTrue();
        assertThat(store.inspect(List.of("o-1")).join().get("o-1").phase()).isEqualTo(OrderView.Phase.GIVEN_UP);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void finishedAndUnknownOrdersAreNotFired(String mode) {
        TimerSettings settings = settings(mode);
        TimerKeys keys = new TimerKeys("lapse", 4);
        TimerStore.of(redis.connection(), keys, settings)
                .apply(List.of(OrderUpdate.terminal("done", System.currentTimeMillis())))
                .join();
        ManualFiring firing = new ManualFiring(redis.connection(), keys, settings);

        assertThat(firing.claim("done").join().outcome()).isEqualTo(ManualFiring.Outcome.FINISHED);
        assertThat(firing.claim("never-seen").join().outcome()).isEqualTo(ManualFiring.Outcome.UNKNOWN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void countsWatchedAndOverdueTimersPerShardAndNamesTheOldest(String mode) {
        TimerSettings settings = settings(mode);
        TimerKeys keys = new TimerKeys("lapse", 4);
        TimerStore store = TimerStore.of(redis.connection(), keys, settings);
        long now = System.currentTimeMillis();
        store.apply(List.of(
                        OrderUpdate.active("live-1", now),
                        OrderUpdate.active("live-2", now),
                        OrderUpdate.active("late-1", now - TTL - 30_000),
                        OrderUpdate.active("late-2", now - TTL - 90_000),
                        OrderUpdate.terminal("done", now)))
                .join();
        ShardCensus census = new ShardCensus(redis.connection(), keys, settings);

        List<ShardCensus.ShardCount> shards =
                census.count(census.redisNow().join(), Duration.ofSeconds(5)).join();

        assertThat(shards).hasSize(4);
        assertThat(shards.stream().mapToLong(ShardCensus.ShardCount::watched).sum())
                .isEqualTo(4);
        assertThat(shards.stream().mapToLong(ShardCensus.ShardCount::overdue).sum())
                .isEqualTo(2);
        ShardCensus.ShardCount oldestShard = shards.get(keys.shardOf("late-2"));
        assertThat(oldestShard.oldest()).isEqualTo(new ShardCensus.OverdueOrder("late-2", now - 90_000));
        assertThat(shards).allSatisfy(s -> assertThat(s.epoch()).isNull());
    }

    @Test
    void theAuditLogKeepsWhoDidWhatToWhichOrderNewestFirst() {
        AuditLog audit = new AuditLog(redis.connection(), new TimerKeys("lapse", 4));
        audit.record(new AuditLog.Entry(0, "fire", "o-1", "", "alice")).join();
        audit.record(new AuditLog.Entry(0, "cancel", "o-2", "customer called", "bob"))
                .join();
        audit.record(new AuditLog.Entry(0, "cancel", "o-1", "stuck", "alice")).join();

        List<AuditLog.Entry> entries = audit.of("o-1").join();

        assertThat(entries).extracting(AuditLog.Entry::action).containsExactly("cancel", "fire");
        assertThat(entries.get(0).reason()).isEqualTo("stuck");
        assertThat(entries.get(0).at()).isCloseTo(System.currentTimeMillis(), Offset.offset(5_000L));
    }
}
