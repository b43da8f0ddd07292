package io.lapse.store.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.store.RedisConnectionExtension;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The timer rules of the contract, on a real Redis. Redis's own clock decides what is due, so deadlines are placed
 * in the past or far in the future rather than waited for.
 */
@Tag("slow")
class ZsetTimerStoreTest {

    private static final long TTL = 10_000;
    private static final long REPEAT = 5_000;
    private static final long FAR_FUTURE = Long.MAX_VALUE / 2;

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    private TimerStore store;

    @BeforeEach
    void emptyRedis() {
        redis.connection().async().flushall().toCompletableFuture().join();
        store = storeWith(Map.of());
        new RedisEpochs(redis.connection(), store.keys()).stamp("test").join();
    }

    private static TimerStore storeWith(Map<String, String> overrides) {
        TimerSettings settings = settingsWith(overrides);
        return TimerStore.of(redis.connection(), new TimerKeys("lapse", settings.shards()), settings);
    }

    private static TimerSettings settingsWith(Map<String, String> overrides) {
        return TimerSettings.from(ConfigSource.defaults()
                .with(Map.of(
                        "timer.ttl",
                        TTL + "ms",
                        "timer.repeat",
                        REPEAT + "ms",
                        "timer.max-attempts",
                        "3",
                        "timer.shards",
                        "4"))
                .with(overrides));
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private OrderView view(String orderId) {
        return store.inspect(List.of(orderId)).join().get(orderId);
    }

    private List<Claim> claimAll() {
        List<Claim> claims = new java.util.ArrayList<>();
        for (int shard = 0; shard < 4; shard++) {
            claims.addAll(store.claim(shard, FAR_FUTURE).join().claims());
        }
        return claims;
    }

    /** The first {@code count} ids {@code prefix0}, {@code prefix1}, … that live in the shard. */
    private List<String> ordersOf(int shard, String prefix, int count) {
        return IntStream.range(0, 10_000)
                .mapToObj(i -> prefix + i)
                .filter(orderId -> store.keys().shardOf(orderId) == shard)
                .limit(count)
                .toList();
    }

    private void acknowledge(List<Claim> claims) {
        claims.forEach(c ->
                store.acknowledge(store.keys().shardOf(c.orderId()), List.of(c)).join());
    }

    @Test
    void aStatusArmsTheDeadlineAtItsEventTimePlusTtl() {
        long ts = now();

        store.apply(List.of(OrderUpdate.active("o1", ts))).join();

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ARMED);
        assertThat(view("o1").dueAt()).hasValue(ts + TTL);
        assertThat(view("o1").lastSeen()).hasValue(ts);
    }

    @Test
    void theEarliestDueIsTheSoonestDeadlineOfAnyShardAndNoneWhenAllAreEmpty() {
        assertThat(store.earliestDue().join()).isEmpty();
        long ts = now();
        List<String> orders = IntStream.range(0, 16).mapToObj(i -> "o" + i).toList();
        assertThat(orders.stream().map(store.keys()::shardOf).distinct())
                .as("orders in every shard")
                .hasSize(4);
        store.apply(IntStream.range(0, orders.size())
                        .mapToObj(i -> OrderUpdate.active(orders.get(i), ts + 1_000L * (orders.size() - i)))
                        .toList())
                .join();

        assertThat(store.earliestDue().join()).hasValue(ts + 1_000 + TTL);
    }

    @Test
    void duplicateAndOutOfOrderStatusesNeverMoveADeadlineEarlier() {
        long ts = now();
        store.apply(List.of(OrderUpdate.active("o1", ts))).join();

        store.apply(List.of(OrderUpdate.active("o1", ts))).join();
        store.apply(List.of(OrderUpdate.active("o1", ts - 5_000))).join();
        store.apply(List.of(OrderUpdate.active("o1", ts - 1), OrderUpdate.active("o1", ts - 9_000)))
                .join();

        assertThat(view("o1").dueAt()).hasValue(ts + TTL);
        store.apply(List.of(OrderUpdate.active("o1", ts + 3_000))).join();
        assertThat(view("o1").dueAt()).hasValue(ts + 3_000 + TTL);
    }

    @Test
    void aDueOrderIsClaimedOnceWithItsDeadlineAndAttemptOne() {
        long ts = now() - TTL - 1_000;
        store.apply(List.of(OrderUpdate.active("o1", ts), OrderUpdate.active("o2", now())))
                .join();

        List<Claim> claims = claimAll();

        assertThat(claims).singleElement().satisfies(c -> {
            assertThat(c.orderId()).isEqualTo("o1");
            assertThat(c.deadline()).isEqualTo(ts + TTL);
            assertThat(c.lastSeen()).isEqualTo(ts);
            assertThat(c.attempt()).isEqualTo(1);
            assertThat(c.source()).isEqualTo(TimerExpired.Source.TIMER);
            assertThat(c.firedAt()).isBetween(ts + TTL, now());
            assertThat(c.finalAttempt()).isFalse();
        });
        assertThat(claimAll()).as("a leased order is not claimed again").isEmpty();
        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.LEASED);
    }

    @Test
    void nothingFiresPastTheWatermarkEvenWhenItsDeadlineHasPassed() {
        long ts = now() - TTL - 5_000;
        store.apply(List.of(OrderUpdate.active("o1", ts))).join();
        int shard = store.keys().shardOf("o1");

        ClaimBatch heldBack = store.claim(shard, ts + TTL - 1).join();

        assertThat(heldBack.claims()).isEmpty();
        assertThat(heldBack.nextDue()).hasValue(ts + TTL);
        assertThat(store.claim(shard, ts + TTL).join().claims())
                .extracting(Claim::orderId)
                .containsExactly("o1");
    }

    @Test
    void aShardWithoutItsEpochFiresNothingUntilTheEpochIsBack() {
        long ts = now() - TTL - 5_000;
        store.apply(List.of(OrderUpdate.active("o1", ts))).join();
        int shard = store.keys().shardOf("o1");
        redis.connection()
                .async()
                .del(store.keys().epoch(shard))
                .toCompletableFuture()
                .join();

        ClaimBatch lost = store.claim(shard, FAR_FUTURE).join();

        assertThat(lost.claims()).isEmpty();
        assertThat(lost.nextDue())
                .as("so that the timer sleeps instead of claiming again at once")
                .isEmpty();
        new RedisEpochs(redis.connection(), store.keys()).stamp("rebuilt").join();
        assertThat(store.claim(shard, FAR_FUTURE).join().claims())
                .extracting(Claim::orderId)
                .containsExactly("o1");
    }

    /**
     * Redis lost its data, and a rebuild has written the finished marks and the orders due by its horizon: those fire,
     * while an order due after the horizon and one ingest armed again (maybe from a replayed old status whose expiry was
     * published) wait for the epoch.
     */
    @Test
    void whileARebuildIsUnderWayOnlyTheOrdersItWroteDueByItsHorizonFire() {
        redis.connection().async().flushall().toCompletableFuture().join();
        long now = now();
        long horizon = now - 10_000;
        new TimerRebuild(redis.connection(), store.keys(), settingsWith(Map.of()))
                .merge(
                        List.of(
                                new TimerImage(
                                        "due-by-the-horizon",
                                        TimerImage.Phase.WATCHED,
                                        now - 20_000 - TTL,
                                        0,
                                        0,
                                        now - 20_000),
                                new TimerImage(
                                        "due-after-the-horizon",
                                        TimerImage.Phase.WATCHED,
                                        now - 5_000 - TTL,
                                        0,
                                        0,
                                        now - 5_000)),
                        false)
                .join();
        store.apply(List.of(OrderUpdate.active("armed-by-ingest", now - 30_000 - TTL)))
                .join();
        RedisEpochs epochs = new RedisEpochs(redis.connection(), store.keys());
        Map<Integer, String> generations = epochs.begin("rebuilding").join();
        assertThat(claimAll()).as("before the first pass is declared").isEmpty();

        epochs.rebuiltUpTo(generations, horizon).join();

        assertThat(claimAll())
                .extracting(Claim::orderId, Claim::source)
                .containsExactly(tuple("due-by-the-horizon", TimerExpired.Source.COMPENSATOR));
        ClaimBatch ingests =
                store.claim(store.keys().shardOf("armed-by-ingest"), FAR_FUTURE).join();
        assertThat(ingests.nextDue().getAsLong())
                .as("the timer looks at the shard again shortly, rather than at once over and over")
                .isGreaterThan(ingests.redisNow());
        epochs.finish(generations).join();
        assertThat(claimAll())
                .extracting(Claim::orderId)
                .containsExactlyInAnyOrder("due-after-the-horizon", "armed-by-ingest");
    }

    /**
     * During a rebuild, more than a batch of orders ingest armed are due before one the rebuild wrote: they wait for the
     * epoch without holding it back.
     */
    @Test
    void whileARebuildIsUnderWayMoreThanABatchOfOrdersIngestArmedDoNotHoldBackOneItWrote() {
        store = storeWith(Map.of("timer.batch-size", "2"));
        redis.connection().async().flushall().toCompletableFuture().join();
        long now = now();
        String written = "written-by-the-rebuild";
        int shard = store.keys().shardOf(written);
        List<String> armed = ordersOf(shard, "armed-by-ingest-", 5);
        new TimerRebuild(redis.connection(), store.keys(), settingsWith(Map.of()))
                .merge(
                        List.of(new TimerImage(
                                written, TimerImage.Phase.WATCHED, now - 20_000 - TTL, 0, 0, now - 20_000)),
                        false)
                .join();
        store.apply(armed.stream()
                        .map(orderId -> OrderUpdate.active(orderId, now - 30_000 - TTL))
                        .toList())
                .join();
        RedisEpochs epochs = new RedisEpochs(redis.connection(), store.keys());
        epochs.rebuiltUpTo(epochs.begin("rebuilding").join(), now - 10_000).join();

        assertThat(store.claim(shard, FAR_FUTURE).join().claims())
                .extracting(Claim::orderId)
                .containsExactly(written);
    }

    @Test
    void ordersWithRecordsIngestHasNotAppliedStayWhereTheyAreWhileMoreThanABatchOfThemLieBeforeTheOthers() {
        store = storeWith(Map.of("timer.batch-size", "2"));
        long now = now();
        String silent = "silent";
        int shard = store.keys().shardOf(silent);
        List<String> unread = ordersOf(shard, "pushing-", 5);
        store.apply(unread.stream()
                        .map(orderId -> OrderUpdate.active(orderId, now - 30_000 - TTL))
                        .toList())
                .join();
        store.apply(List.of(OrderUpdate.active(silent, now - 20_000 - TTL))).join();

        assertThat(store.claim(shard, FAR_FUTURE, unread).join().claims())
                .extracting(Claim::orderId)
                .containsExactly(silent);
        assertThat(unread)
                .allSatisfy(
                        orderId -> assertThat(view(orderId).phase()).as(orderId).isEqualTo(OrderView.Phase.ARMED));
    }

    @Test
    void aClaimNeverAcknowledgedFiresAgainWithTheSameTripleOnceTheLeasePasses() {
        store = storeWith(Map.of("timer.lease", "300ms"));
        store.apply(List.of(OrderUpdate.active("o1", now() - TTL - 1_000))).join();
        Claim first = claimAll().get(0);

        // the instance "crashed" before acknowledging: nothing is due until the lease runs out
        assertThat(claimAll()).isEmpty();
        List<Claim> again = await().atMost(Duration.ofSeconds(5)).until(this::claimAll, c -> !c.isEmpty());

        assertThat(again).singleElement().satisfies(c -> {
            assertThat(c.orderId()).isEqualTo(first.orderId());
            assertThat(c.deadline()).isEqualTo(first.deadline());
            assertThat(c.attempt()).isEqualTo(first.attempt());
        });
    }

    @Test
    void aPushReArmsAnOrderPastTheClaimOfAnOwnerThatDiedWhateverTheLease() {
        // a ttl shorter than the lease (issue 41): the claim's lease score lies beyond where the push arms the order
        store = storeWith(Map.of("timer.lease", "1h"));
        store.apply(List.of(OrderUpdate.active("o1", now() - TTL - 1_000))).join();
        Claim claimed = claimAll().get(0);
        long spoke = now();

        // the push comes in one batch with orders that have no state entry, as ingest's batches do
        store.apply(List.of(OrderUpdate.active("o1", spoke), OrderUpdate.active("o2", spoke)))
                .join();

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ARMED);
        assertThat(view("o1").dueAt()).hasValue(spoke + TTL);
        assertThat(store.acknowledge(store.keys().shardOf("o1"), List.of(claimed))
                        .join())
                .as("the dead owner's late acknowledgement changes nothing")
                .isZero();
        assertThat(view("o1").dueAt()).hasValue(spoke + TTL);
    }

    @Test
    void aNewOwnerOfTheShardFiresTheClaimsItInheritedAtOnceWithTheSameTriple() {
        store = storeWith(Map.of("timer.lease", "1h"));
        store.apply(List.of(OrderUpdate.active("o1", now() - TTL - 1_000), OrderUpdate.active("o2", now())))
                .join();
        Claim first = claimAll().get(0);
        int shard = store.keys().shardOf("o1");

        assertThat(store.releaseLeases(shard).join()).isEqualTo(1);

        assertThat(claimAll()).singleElement().satisfies(c -> {
            assertThat(c.orderId()).isEqualTo(first.orderId());
            assertThat(c.deadline()).isEqualTo(first.deadline());
            assertThat(c.attempt()).isEqualTo(first.attempt());
        });
        assertThat(view("o2").phase()).as("an armed order is no lease").isEqualTo(OrderView.Phase.ARMED);
        assertThat(view("o2").dueAt()).hasValue(view("o2").lastSeen().getAsLong() + TTL);
    }

    @Test
    void aBatchOfOrdersWhoseIdsHoldSeparatorsOfTheStateEntryIsClaimedAndAcknowledgedWhole() {
        long ts = now() - TTL - 1_000;
        List<String> ids = List.of("a|b", "with space", "ünï|cödé|", "p-" + "x".repeat(100));
        store.apply(ids.stream().map(id -> OrderUpdate.active(id, ts)).toList()).join();

        List<Claim> claims = claimAll();
        claims.stream()
                .collect(Collectors.groupingBy(c -> store.keys().shardOf(c.orderId())))
                .forEach((shard, ofShard) ->
                        assertThat(store.acknowledge(shard, ofShard).join()).isEqualTo((long) ofShard.size()));

        assertThat(claims).extracting(Claim::orderId).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(claims).allSatisfy(c -> {
            assertThat(c.deadline()).isEqualTo(ts + TTL);
            assertThat(c.lastSeen()).isEqualTo(ts);
            assertThat(c.attempt()).isEqualTo(1);
        });
        assertThat(ids).allSatisfy(id -> assertThat(view(id).phase()).isEqualTo(OrderView.Phase.FIRED));
    }

    @Test
    void anAcknowledgedExpiryRepeatsAfterTheRepeatIntervalWithTheNextAttempt() {
        store.apply(List.of(OrderUpdate.active("o1", now() - TTL - 1_000))).join();
        Claim first = claimAll().get(0);

        acknowledge(List.of(first));

        OrderView fired = view("o1");
        assertThat(fired.phase()).isEqualTo(OrderView.Phase.FIRED);
        assertThat(fired.attempt()).isEqualTo(1);
        assertThat(fired.dueAt()).hasValue(first.firedAt() + REPEAT);
        Claim second = store.claim(store.keys().shardOf("o1"), FAR_FUTURE).join().claims().stream()
                .findFirst()
                .orElse(null);
        assertThat(second).as("not yet due").isNull();
    }

    @Test
    void theLastAttemptSaysFinalAndThenTheOrderIsGivenUp() {
        store = storeWith(Map.of("timer.repeat", "1ms"));
        store.apply(List.of(OrderUpdate.active("o1", now() - TTL - 1_000))).join();

        Claim a1 = awaitClaim();
        acknowledge(List.of(a1));
        Claim a2 = awaitClaim();
        acknowledge(List.of(a2));
        Claim a3 = awaitClaim();
        acknowledge(List.of(a3));

        assertThat(List.of(a1.attempt(), a2.attempt(), a3.attempt())).containsExactly(1, 2, 3);
        assertThat(List.of(a1.finalAttempt(), a2.finalAttempt(), a3.finalAttempt()))
                .containsExactly(false, false, true);
        assertThat(a2.deadline()).isEqualTo(a1.firedAt() + 1);
        assertThat(a1.lastSeen()).isEqualTo(a3.lastSeen());
        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.GIVEN_UP);
        assertThat(claimAll()).isEmpty();
    }

    @Test
    void aShardsClaimsAreAcknowledgedInOneCallAndAClaimListedTwiceCountsOnce() {
        long silentSince = now() - TTL - 1_000;
        store.apply(IntStream.range(0, 50)
                        .mapToObj(i -> OrderUpdate.active("o" + i, silentSince))
                        .toList())
                .join();
        List<Claim> claims = claimAll();

        long acknowledged =
                claims.stream()
                        .collect(Collectors.groupingBy(c -> store.keys().shardOf(c.orderId())))
                        .entrySet()
                        .stream()
                        .mapToLong(shard -> {
                            List<Claim> listedTwice = new java.util.ArrayList<>(shard.getValue());
                            listedTwice.add(shard.getValue().get(0));
                            return store.acknowledge(shard.getKey(), listedTwice)
                                    .join();
                        })
                        .sum();

        assertThat(claims).hasSize(50);
        assertThat(acknowledged).isEqualTo(50);
        assertThat(claims).allSatisfy(claim -> {
            OrderView fired = view(claim.orderId());
            assertThat(fired.phase()).isEqualTo(OrderView.Phase.FIRED);
            assertThat(fired.dueAt()).hasValue(claim.firedAt() + REPEAT);
        });
    }

    private Claim awaitClaim() {
        return await().atMost(Duration.ofSeconds(5))
                .until(this::claimAll, c -> !c.isEmpty())
                .get(0);
    }

    @Test
    void aFreshStatusResetsTheAttemptCountButAnOlderOneDoesNot() {
        long ts = now() - TTL - 1_000;
        store.apply(List.of(OrderUpdate.active("o1", ts))).join();
        acknowledge(claimAll());

        store.apply(List.of(OrderUpdate.active("o1", ts - 1))).join();
        store.apply(List.of(OrderUpdate.active("o1", ts))).join();
        assertThat(view("o1").phase())
                .as("older or equal statuses change nothing")
                .isEqualTo(OrderView.Phase.FIRED);

        long fresh = now() - TTL - 500;
        store.apply(List.of(OrderUpdate.active("o1", fresh))).join();
        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ARMED);
        assertThat(claimAll()).singleElement().satisfies(c -> {
            assertThat(c.attempt()).isEqualTo(1);
            assertThat(c.deadline()).isEqualTo(fresh + TTL);
        });
    }

    @Test
    void aFreshStatusDuringALeaseMakesTheLateAcknowledgementHarmless() {
        long ts = now() - TTL - 1_000;
        store.apply(List.of(OrderUpdate.active("o1", ts))).join();
        List<Claim> inFlight = claimAll();

        long fresh = now();
        store.apply(List.of(OrderUpdate.active("o1", fresh))).join();
        acknowledge(inFlight);

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ARMED);
        assertThat(view("o1").dueAt()).hasValue(fresh + TTL);
    }

    @Test
    void aTerminalStatusCancelsAndItsTombstoneStopsReplayedStatusesFromRevivingTheOrder() {
        long ts = now() - TTL - 1_000;
        store.apply(List.of(OrderUpdate.active("o1", ts))).join();

        store.apply(List.of(OrderUpdate.terminal("o1", ts + 1))).join();
        store.apply(List.of(OrderUpdate.active("o1", ts + 2), OrderUpdate.active("o1", now())))
                .join();

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ENDED);
        assertThat(claimAll()).isEmpty();
    }

    @Test
    void aShardsStateHashIsATableHoweverFewOrdersItHolds() {
        store.apply(List.of(OrderUpdate.terminal("o1", now()))).join();

        assertThat(redis.connection()
                        .async()
                        .objectEncoding(store.keys().state(store.keys().shardOf("o1")))
                        .toCompletableFuture()
                        .join())
                .as("looked up in O(1), not scanned")
                .isEqualTo("hashtable");
        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ENDED);
    }

    @Test
    void aTerminalStatusWinsOverANewerStatusInTheSameBatch() {
        store.apply(List.of(OrderUpdate.terminal("o1", 1_000), OrderUpdate.active("o1", now())))
                .join();

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ENDED);
    }

    @Test
    void tombstonesAreForgottenAfterTheirRetention() {
        store = storeWith(Map.of("timer.tombstone-retention", "1ms"));
        store.apply(List.of(OrderUpdate.terminal("o1", now()))).join();

        await().atMost(Duration.ofSeconds(5))
                .until(() -> store.prune(store.keys().shardOf("o1"), 100).join() == 1);

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.UNKNOWN);
    }

    @Test
    void aNotFoundPullEndsTheWatchUnlessANewerStatusArrivedFirst() {
        long ts = now() - 2_000;
        store.apply(List.of(OrderUpdate.active("o1", ts), OrderUpdate.active("o2", ts)))
                .join();

        store.apply(List.of(OrderUpdate.gone("o1", ts + 1_000), OrderUpdate.gone("o2", ts - 1_000)))
                .join();

        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.UNKNOWN);
        assertThat(view("o2").phase()).isEqualTo(OrderView.Phase.ARMED);
        store.apply(List.of(OrderUpdate.active("o1", now()))).join();
        assertThat(view("o1").phase())
                .as("not a tombstone: a later push watches it again")
                .isEqualTo(OrderView.Phase.ARMED);
    }

    @Test
    void inspectingUnknownOrdersSaysSo() {
        assertThat(view("nobody").phase()).isEqualTo(OrderView.Phase.UNKNOWN);
        assertThat(view("nobody").isWatched()).isFalse();
    }

    @Test
    void aBatchOfManyOrdersIsArmedAndCounted() {
        List<OrderUpdate> updates = new java.util.ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            updates.add(OrderUpdate.active("order-" + i, now()));
        }

        ApplyResult result = store.apply(updates).join();

        assertThat(result.armed()).isEqualTo(5_000);
        assertThat(store.watchedCount().join()).isEqualTo(5_000);
    }

    @Test
    void aFinishedAndAFiredOrderAmongManyFreshStatusesOfABatchKeepTheirRules() {
        long ts = now() - TTL - 1_000;
        store.apply(List.of(OrderUpdate.active("fired", ts), OrderUpdate.terminal("finished", ts)))
                .join();
        acknowledge(claimAll());
        List<OrderUpdate> batch = new java.util.ArrayList<>();
        long fresh = now();
        for (int i = 0; i < 2_000; i++) {
            batch.add(OrderUpdate.active("order-" + i, fresh));
        }
        batch.add(OrderUpdate.active("finished", fresh));
        batch.add(OrderUpdate.active("fired", fresh));

        ApplyResult result = store.apply(batch).join();

        assertThat(view("finished").phase()).as("not revived").isEqualTo(OrderView.Phase.ENDED);
        assertThat(redis.connection()
                        .async()
                        .zscore(store.keys().due(store.keys().shardOf("finished")), "finished")
                        .toCompletableFuture()
                        .join())
                .as("no deadline")
                .isNull();
        assertThat(view("fired").phase()).as("re-armed").isEqualTo(OrderView.Phase.ARMED);
        assertThat(view("fired").attempt()).isZero();
        assertThat(view("fired").dueAt()).hasValue(fresh + TTL);
        assertThat(view("order-1999").dueAt()).hasValue(fresh + TTL);
        assertThat(result).isEqualTo(new ApplyResult(2_001, 0, 1));
    }

    @Test
    void armingADeadlineEarlierThanTheShardsNextOneWakesTheTimer() throws Exception {
        BlockingQueue<String> wakes = new LinkedBlockingQueue<>();
        try (StatefulRedisPubSubConnection<String, String> sub =
                redis.connection().pubSub()) {
            sub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    wakes.add(message);
                }
            });
            sub.async().subscribe(store.keys().wakeChannel()).get(5, TimeUnit.SECONDS);
            int shard = store.keys().shardOf("o1");

            store.apply(List.of(OrderUpdate.active("o1", now()))).join();
            assertThat(wakes.poll(5, TimeUnit.SECONDS)).isEqualTo(Integer.toString(shard));

            store.apply(List.of(OrderUpdate.active("o1", now() + 1_000))).join();
            store.apply(List.of(OrderUpdate.active("o1", now() - 1_000))).join();
            assertThat(wakes.poll(200, TimeUnit.MILLISECONDS))
                    .as("a later deadline wakes nobody")
                    .isNull();
        }
    }

    @Test
    void aClaimThatUsesAWatermarkReadBeforeAFreezeFiresNothingThatSpokeDuringIt() {
        long silentSince = now() - TTL - 5_000;
        store.apply(List.of(OrderUpdate.active("o1", silentSince))).join();
        // the timer reads the watermark (it covers o1's deadline), and freezes before it claims
        long readBeforeTheFreeze = silentSince + TTL;
        // meanwhile ingest applies a push of o1, and the watermark moves on
        store.apply(List.of(OrderUpdate.active("o1", now()))).join();

        ClaimBatch resumed =
                store.claim(store.keys().shardOf("o1"), readBeforeTheFreeze).join();

        assertThat(resumed.claims()).as("an old watermark only holds back more").isEmpty();
        assertThat(view("o1").phase()).isEqualTo(OrderView.Phase.ARMED);
    }
}
