package io.lapse.store.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.store.RedisConnectionExtension;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.internal.LuaTimerStore;
import io.lapse.store.timers.internal.TtlMode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** timer.mode=ttl on a real Redis: trigger keys, firing on their expiry, and repair of lost notifications. */
class TtlTimerStoreTest {

    private static final long TTL = 10_000;
    private static final long FAR_FUTURE = Long.MAX_VALUE / 2;

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    private LuaTimerStore store;
    private TimerSettings settings;

    @BeforeEach
    void emptyRedis() {
        redis.connection().async().flushall().toCompletableFuture().join();
        settings = TimerSettings.from(ConfigSource.defaults()
                .with(Map.of(
                        "timer.ttl",
                        TTL + "ms",
                        "timer.repeat",
                        "5s",
                        "timer.max-attempts",
                        "3",
                        "timer.shards",
                        "4",
                        "timer.mode",
                        "ttl")));
        store = LuaTimerStore.of(redis.connection(), new TimerKeys("lapse", 4), settings);
        new RedisEpochs(redis.connection(), store.keys()).stamp("test").join();
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private OrderView view(String orderId) {
        return store.inspect(List.of(orderId)).join().get(orderId);
    }

    private long pttl(String orderId) {
        return redis.connection()
                .async()
                .pttl(trigger(orderId))
                .toCompletableFuture()
                .join();
    }

    private String trigger(String orderId) {
        return store.keys().triggerPrefix(store.keys().shardOf(orderId)) + orderId;
    }

    /** What the timer does when Redis announces the order's trigger key as expired. */
    private List<Claim> fire(String orderId, long watermark) {
        int shard = store.keys().shardOf(orderId);
        ((TtlMode) store.mode()).announce(trigger(orderId), announced -> {}).join();
        return store.claim(shard, watermark).join().claims();
    }

    @Test
    void ttlModeCannotLeaveUnreadOrdersOutOfAClaimAndRefusesToTry() {
        assertThat(store.claimsPastUnread()).isFalse();
        assertThatThrownBy(() -> store.claim(0, FAR_FUTURE, List.of("o1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("timer.mode=");
    }

    @Test
    void aStatusSetsATriggerKeyThatExpiresAtTheDeadline() {
        long ts = now();

        store.apply(List.of(OrderUpdate.active("o1", ts))).join();

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ARMED);
        assertThat(view("o1").dueAt()).hasValue(ts + TTL);
        assertThat(pttl("o1")).isBetween(TTL - 1_000, TTL);
    }

    @Test
    void olderAndDuplicateStatusesLeaveTheDeadlineAlone() {
        long ts = now();
        store.apply(List.of(OrderUpdate.active("o1", ts))).join();

        store.apply(List.of(OrderUpdate.active("o1", ts - 1_000), OrderUpdate.active("o1", ts)))
                .join();

        assertThat(view("o1").dueAt()).hasValue(ts + TTL);
    }

    @Test
    void anExpiredTriggerFiresWithALeaseAndAnAckSetsTheNextRepeat() {
        store.apply(List.of(OrderUpdate.active("o1", now() - TTL - 1_000))).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> pttl("o1") == -2);

        List<Claim> claims = fire("o1", FAR_FUTURE);

        assertThat(claims).singleElement().satisfies(c -> {
            assertThat(c.attempt()).isEqualTo(1);
            assertThat(c.source()).isEqualTo(TimerExpired.Source.KEYSPACE);
        });
        assertThat(pttl("o1")).as("leased").isPositive();
        assertThat(fire("o1", FAR_FUTURE))
                .as("a duplicate notification fires nothing")
                .isEmpty();
        store.acknowledge(store.keys().shardOf("o1"), claims).join();
        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.FIRED);
        assertThat(view("o1").dueAt()).hasValue(claims.get(0).firedAt() + 5_000);
    }

    @Test
    void aNotificationPastTheWatermarkSetsTheTriggerAgainInsteadOfFiring() {
        long ts = now() - TTL - 1_000;

        assertThatANotificationFiresNothingAndSetsTheTriggerAgain(
                () -> store.apply(List.of(OrderUpdate.active("o1", ts))).join(), ts + TTL - 1);
    }

    @Test
    void aNotificationOnAShardWithoutItsEpochSetsTheTriggerAgainInsteadOfFiring() {
        redis.connection()
                .async()
                .del(store.keys().epoch(store.keys().shardOf("o1")))
                .toCompletableFuture()
                .join();

        assertThatAnOverdueOrdersNotificationFiresNothing();
    }

    @Test
    void aNotificationOnAShardWhoseEpochWasDeclaredOnAnotherServerSetsTheTriggerAgainInsteadOfFiring() {
        // a restarted server, a promoted replica or a restored snapshot keeps the epoch of the server it copied
        redis.connection()
                .async()
                .set(store.keys().epochServer(store.keys().shardOf("o1")), "another-server")
                .toCompletableFuture()
                .join();

        assertThatAnOverdueOrdersNotificationFiresNothing();
    }

    @Test
    void whileARebuildIsUnderWayAnOrderItWroteFiresAndOneIngestArmedAgainWaitsForTheEpoch() {
        redis.connection().async().flushall().toCompletableFuture().join();
        long past = now() - 1_000;
        new TimerRebuild(redis.connection(), store.keys(), settings)
                .merge(List.of(new TimerImage("written", TimerImage.Phase.WATCHED, past - TTL, 0, 0, past)), false)
                .join();
        RedisEpochs epochs = new RedisEpochs(redis.connection(), store.keys());
        epochs.rebuiltUpTo(epochs.begin("rebuilding").join(), now()).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> pttl("written") == -2);

        assertThat(fire("written", FAR_FUTURE)).extracting(Claim::orderId).containsExactly("written");
        assertThatAnOverdueOrdersNotificationFiresNothing();
    }

    /** An order armed overdue, past any watermark: its notification fires nothing and sets its trigger again. */
    private void assertThatAnOverdueOrdersNotificationFiresNothing() {
        assertThatANotificationFiresNothingAndSetsTheTriggerAgain(
                () -> store.apply(List.of(OrderUpdate.active("o1", now() - TTL - 1_000)))
                        .join(),
                FAR_FUTURE);
    }

    /**
     * The trigger set again lives only {@link LuaTimerStore#WATERMARK_RETRY_MS}, so a look at it that came later than
     * that (a loaded machine) proves nothing either way: such a round is repeated, a prompt one decides.
     */
    private void assertThatANotificationFiresNothingAndSetsTheTriggerAgain(
            Runnable armPastTheDeadline, long watermark) {
        for (int round = 1; ; round++) {
            armPastTheDeadline.run();
            await().atMost(Duration.ofSeconds(10)).until(() -> pttl("o1") == -2);
            long startedAt = System.nanoTime();

            assertThat(fire("o1", watermark)).isEmpty();

            long remaining = pttl("o1");
            boolean prompt =
                    Duration.ofNanos(System.nanoTime() - startedAt).toMillis() < LuaTimerStore.WATERMARK_RETRY_MS;
            if (prompt || remaining != -2 || round == 10) {
                assertThat(remaining).as("trigger's pttl").isBetween(0L, LuaTimerStore.WATERMARK_RETRY_MS);
                return;
            }
        }
    }

    @Test
    void aTerminalStatusDeletesTheTrigger() {
        store.apply(List.of(OrderUpdate.active("o1", now()))).join();

        store.apply(List.of(OrderUpdate.terminal("o1", now()))).join();

        assertThat(pttl("o1")).isEqualTo(-2);
        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ENDED);
    }

    @Test
    void watchedOrdersAreThoseArmedAndNotEndedInAStateHashThatIsATable() {
        store.apply(List.of(
                        OrderUpdate.active("o1", now()),
                        OrderUpdate.active("o2", now()),
                        OrderUpdate.terminal("o3", now())))
                .join();

        assertThat(store.watchedCount().join()).isEqualTo(2);
        assertThat(redis.connection()
                        .async()
                        .objectEncoding(store.keys().state(store.keys().shardOf("o1")))
                        .toCompletableFuture()
                        .join())
                .isEqualTo("hashtable");
    }
}
