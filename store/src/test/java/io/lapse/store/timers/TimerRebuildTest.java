package io.lapse.store.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.store.RedisConnection;
import io.lapse.store.SharedRedis;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.TimerImage.Phase;
import io.lapse.store.timers.internal.LuaTimerStore;
import io.lapse.store.timers.internal.TtlMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Rebuilding the sorted-set timer store from images, on a real Redis: exactly what was lost, never backwards. */
@ExtendWith(SharedRedis.class)
class TimerRebuildTest {

    private static final long TTL = 10_000;
    private static final long FAR_FUTURE = Long.MAX_VALUE / 2;

    private static RedisConnection connection;

    private TimerStore store;
    private TimerRebuild rebuild;

    @BeforeAll
    static void connect(RedisConnection shared) {
        connection = shared;
    }

    @BeforeEach
    void emptyRedis() {
        connection.async().flushall().toCompletableFuture().join();
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults()
                .with(Map.of(
                        "timer.ttl",
                        TTL + "ms",
                        "timer.repeat",
                        "5s",
                        "timer.max-attempts",
                        "3",
                        "timer.shards",
                        "4")));
        TimerKeys keys = new TimerKeys("lapse", settings.shards());
        store = TimerStore.of(connection, keys, settings);
        rebuild = new TimerRebuild(connection, keys, settings);
        new RedisEpochs(connection, keys).stamp("test").join();
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private OrderView view(String orderId) {
        return store.inspect(List.of(orderId)).join().get(orderId);
    }

    private List<Claim> claimAll() {
        List<Claim> claims = new ArrayList<>();
        for (int shard = 0; shard < 4; shard++) {
            claims.addAll(store.claim(shard, FAR_FUTURE).join().claims());
        }
        return claims;
    }

    private static TimerImage watched(String orderId, long lastSeen, int fired, long firedDeadline, long dueAt) {
        return new TimerImage(orderId, Phase.WATCHED, lastSeen, fired, firedDeadline, dueAt);
    }

    @Test
    void anOrderThatNeverFiredFiresItsFirstAttemptAtItsDeadlineAsRecoveredByTheCompensator() {
        long seen = now() - TTL - 1_000;

        RebuildCount count = rebuild.merge(List.of(watched("o1", seen, 0, 0, seen + TTL)), false)
                .join();

        assertThat(count).isEqualTo(new RebuildCount(1, 0, 0, 0, 1));
        assertThat(claimAll()).singleElement().satisfies(c -> {
            assertThat(c.deadline()).isEqualTo(seen + TTL);
            assertThat(c.attempt()).isEqualTo(1);
            assertThat(c.lastSeen()).isEqualTo(seen);
            assertThat(c.source()).isEqualTo(TimerExpired.Source.COMPENSATOR);
        });
    }

    @Test
    void anOrderThatFiredGoesOnWithTheNextAttemptAtTheNextDeadline() {
        long seen = now() - 60_000;
        long next = now() - 500;

        rebuild.merge(List.of(watched("o1", seen, 2, seen + TTL + 5_000, next)), false)
                .join();

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.FIRED);
        assertThat(view("o1").attempt()).isEqualTo(2);
        assertThat(claimAll()).singleElement().satisfies(c -> {
            assertThat(c.deadline()).isEqualTo(next);
            assertThat(c.attempt()).isEqualTo(3);
            assertThat(c.finalAttempt()).isTrue();
        });
    }

    @Test
    void givenUpAndFinishedOrdersGetTheirMarksBackAndReplayedStatusesCannotReviveThem() {
        long seen = now() - 60_000;
        rebuild.merge(
                        List.of(
                                new TimerImage("gave-up", Phase.GIVEN_UP, seen, 3, seen + 20_000, seen + 21_000),
                                new TimerImage("done", Phase.ENDED, seen, 0, 0, seen)),
                        false)
                .join();

        store.apply(List.of(OrderUpdate.active("gave-up", seen), OrderUpdate.active("done", seen + 1_000)))
                .join();

        assertThat(view("gave-up").phase()).isEqualTo(OrderView.Phase.GIVEN_UP);
        assertThat(view("done").phase()).isEqualTo(OrderView.Phase.ENDED);
        assertThat(claimAll()).isEmpty();
    }

    @Test
    void whatRedisLearnedAfterTheLossIsNeverUndone() {
        long seen = now() - 60_000;
        // ingest armed a newer push, a finished order, and a replayed old push, before the rebuild came
        store.apply(List.of(
                        OrderUpdate.active("newer", seen + 5_000),
                        OrderUpdate.terminal("finished", seen),
                        OrderUpdate.active("replayed", seen)))
                .join();

        RebuildCount count = rebuild.merge(
                        List.of(
                                watched("newer", seen, 1, seen + TTL, seen + TTL + 5_000),
                                watched("finished", seen, 0, 0, seen + TTL),
                                new TimerImage("replayed", Phase.ENDED, seen, 0, 0, seen + 1_000)),
                        false)
                .join();

        assertThat(count).isEqualTo(new RebuildCount(0, 0, 1, 2, 0));
        assertThat(view("newer").lastSeen()).hasValue(seen + 5_000);
        assertThat(view("newer").phase()).isEqualTo(OrderView.Phase.ARMED);
        assertThat(view("finished").phase()).isEqualTo(OrderView.Phase.ENDED);
        assertThat(view("replayed").phase()).isEqualTo(OrderView.Phase.ENDED);
    }

    @Test
    void aClaimInFlightIsLeftToItsAcknowledgementUnlessTheMirrorKnowsItWasPublished() {
        long seen = now() - TTL - 1_000;
        store.apply(List.of(OrderUpdate.active("o1", seen), OrderUpdate.active("o2", seen)))
                .join();
        List<Claim> leased = claimAll();
        assertThat(leased).hasSize(2);

        RebuildCount count = rebuild.merge(
                        List.of(
                                watched("o1", seen, 0, 0, seen + TTL),
                                watched("o2", seen, 1, seen + TTL, now() + 5_000)),
                        false)
                .join();

        assertThat(count.kept()).isEqualTo(1);
        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.LEASED);
        assertThat(view("o2").phase()).isEqualTo(OrderView.Phase.FIRED);
        assertThat(store.acknowledge(
                                store.keys().shardOf("o2"),
                                leased.stream()
                                        .filter(c -> c.orderId().equals("o2"))
                                        .toList())
                        .join())
                .as("the late acknowledgement finds the expiry already recorded")
                .isZero();
    }

    @Test
    void anOrderWhoseDueEntryAloneWasLostFiresAgainOnceTheMirrorIsCompared() {
        // Redis keeps a state entry for orders that fired or that a rebuild wrote: with only their due entries lost
        // (the chaos run's deleted due sets), Redis still holds them as far as the mirror, and nothing would fire them
        long seen = now() - 60_000;
        rebuild.merge(List.of(watched("recovered", seen, 0, 0, seen + TTL)), false)
                .join();
        store.apply(List.of(OrderUpdate.active("fired", seen))).join();
        List<Claim> claims = claimAll();
        assertThat(claims).hasSize(2);
        Claim fired = claims.stream()
                .filter(c -> c.orderId().equals("fired"))
                .findFirst()
                .orElseThrow();
        store.acknowledge(store.keys().shardOf("fired"), List.of(fired)).join();
        long next = now() - 500;
        for (String order : List.of("recovered", "fired")) {
            connection
                    .async()
                    .zrem(store.keys().due(store.keys().shardOf(order)), order)
                    .toCompletableFuture()
                    .join();
        }

        RebuildCount count = rebuild.merge(
                        List.of(
                                watched("recovered", seen, 0, 0, seen + TTL),
                                watched("fired", seen, 1, fired.deadline(), next)),
                        false)
                .join();

        assertThat(count.kept()).as("Redis held both as far as the mirror").isEqualTo(2);
        assertThat(count.overdue()).as("both due again at once").isEqualTo(2);
        assertThat(claimAll())
                .extracting(Claim::orderId, Claim::attempt, Claim::deadline)
                .containsExactlyInAnyOrder(tuple("recovered", 1, seen + TTL), tuple("fired", 2, next));
    }

    @Test
    void aDryRunCountsWhatItWouldWriteAndWritesNothing() {
        long seen = now() - TTL - 1_000;
        store.apply(List.of(OrderUpdate.active("known", seen))).join();
        List<TimerImage> images = List.of(
                watched("known", seen, 0, 0, seen + TTL),
                watched("lost", seen, 0, 0, seen + TTL),
                new TimerImage("done", Phase.ENDED, seen, 0, 0, seen));

        RebuildCount dry = rebuild.merge(images, true).join();

        assertThat(dry).isEqualTo(new RebuildCount(1, 0, 1, 1, 1));
        assertThat(view("lost").phase()).isEqualTo(OrderView.Phase.UNKNOWN);
        assertThat(view("done").phase()).isEqualTo(OrderView.Phase.UNKNOWN);
        assertThat(rebuild.merge(images, false).join()).isEqualTo(dry);
        assertThat(rebuild.merge(images, false).join())
                .as("a second rebuild finds everything in place")
                .isEqualTo(new RebuildCount(0, 0, 0, 3, 0));
    }

    @Test
    void inTtlModeARebuildSetsTriggersAndRestoresOnesWhoseNotificationWasLost() {
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults()
                .with(Map.of(
                        "timer.ttl", TTL + "ms", "timer.max-attempts", "3", "timer.shards", "4", "timer.mode", "ttl")));
        LuaTimerStore ttl = LuaTimerStore.of(connection, store.keys(), settings);
        TimerRebuild ttlRebuild = new TimerRebuild(connection, store.keys(), settings);
        long seen = now() - TTL - 1_000;
        ttl.apply(List.of(OrderUpdate.active("silenced", seen))).join();
        String silenced = store.keys().triggerPrefix(store.keys().shardOf("silenced")) + "silenced";
        await().atMost(Duration.ofSeconds(10)).until(() -> pttl(silenced) == -2); // expired, nobody listened

        RebuildCount count = ttlRebuild
                .merge(
                        List.of(
                                watched("silenced", seen, 0, 0, seen + TTL),
                                watched("lost", seen, 1, seen + TTL, now() + 60_000)),
                        false)
                .join();

        assertThat(count).isEqualTo(new RebuildCount(1, 0, 0, 1, 1));
        assertThat(pttl(store.keys().triggerPrefix(store.keys().shardOf("lost")) + "lost"))
                .isBetween(50_000L, 60_000L);
        assertThat(ttl.inspect(List.of("lost")).join().get("lost").attempt()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> pttl(silenced) == -2);
        ((TtlMode) ttl.mode()).announce(silenced, shard -> {}).join();
        assertThat(ttl.claim(store.keys().shardOf("silenced"), FAR_FUTURE)
                        .join()
                        .claims())
                .singleElement()
                .satisfies(c -> assertThat(c.attempt()).isEqualTo(1));
    }

    private static long pttl(String key) {
        return connection.async().pttl(key).toCompletableFuture().join();
    }
}
