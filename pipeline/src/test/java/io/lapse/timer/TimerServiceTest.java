package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.Namespace;
import io.lapse.config.TestRun;
import io.lapse.devstack.DevStackExtension;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.store.timers.TimerStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The timer service against a real Kafka and Redis. Ingest does not run here: the tests arm timers and set the
 * watermark in Redis themselves, as ingest would.
 */
@Tag("slow")
class TimerServiceTest {

    private static final long TTL = 2_000;

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    private TimerPipeline pipeline;
    private TimerStore store;

    @AfterEach
    void closePipeline() throws Exception {
        pipeline.close();
    }

    private void configure(Map<String, String> overrides) {
        configure(TestRun.namespace("pipeline"), overrides);
    }

    private void configure(Namespace namespace, Map<String, String> overrides) {
        pipeline = new TimerPipeline(stack.bootstrapServers(), stack.redisUri(), namespace, settings(overrides));
        store = pipeline.store;
    }

    private static Map<String, String> settings(Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(Map.of("timer.ttl", TTL + "ms", "timer.repeat", "10s"));
        settings.putAll(overrides);
        return settings;
    }

    private TimerService startTimer() {
        return pipeline.startTimer();
    }

    private void ingestHasReadUpTo(long watermark) {
        pipeline.ingestHasReadUpTo(watermark);
    }

    /**
     * The order's push, applied to Redis as ingest applies what it read and in the push topic with no offset of
     * ingest's committed past it: it waits unread, so only the watermark lets the order fire.
     */
    private void appliedButUnread(String orderId, long ts) {
        pipeline.pushAt(orderId, ts, null);
        pipeline.flush();
        store.apply(List.of(OrderUpdate.active(orderId, ts))).join();
    }

    private List<TimerExpired> expiries() {
        return pipeline.expiries();
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    @Test
    void aClaimThatAKilledTimerLeftLeasedFiresWhenTheNextTimerStartsNotALeaseLater() {
        configure(Map.of("timer.lease", "1h"));
        ingestHasReadUpTo(Long.MAX_VALUE / 2);
        store.apply(List.of(OrderUpdate.active("o1", now() - TTL - 1_000))).join();
        // the killed timer's claim: leased for an hour, never published
        assertThat(store.claim(store.keys().shardOf("o1"), Long.MAX_VALUE / 2)
                        .join()
                        .claims())
                .hasSize(1);

        startTimer();

        await().atMost(Duration.ofSeconds(20)).until(() -> !expiries().isEmpty());
        assertThat(expiries()).singleElement().satisfies(e -> {
            assertThat(e.orderId()).isEqualTo("o1");
            assertThat(e.attempt()).isEqualTo(1);
        });
    }

    @Test
    void aSilentOrderFiresOnceItsDeadlinePasses() {
        configure(Map.of());
        ingestHasReadUpTo(Long.MAX_VALUE / 2);
        startTimer();
        long ts = now() - TTL + 500;

        store.apply(List.of(OrderUpdate.active("o1", ts), OrderUpdate.active("alive", now() + 60_000)))
                .join();

        await().atMost(Duration.ofSeconds(20)).until(() -> !expiries().isEmpty());
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(11))
                .until(() -> expiries().size() == 1);
        TimerExpired expiry = expiries().get(0);
        assertThat(expiry.orderId()).isEqualTo("o1");
        assertThat(expiry.deadline()).isEqualTo(ts + TTL);
        assertThat(expiry.lastSeen()).isEqualTo(ts);
        assertThat(expiry.attempt()).isEqualTo(1);
        assertThat(expiry.source()).isEqualTo(TimerExpired.Source.TIMER);
        assertThat(expiry.firedAt()).isGreaterThanOrEqualTo(expiry.deadline());
        assertThat(expiry.finalAttempt()).isFalse();
    }

    @Test
    void whileSilentAnOrderFiresAgainEveryRepeatUntilTheFinalAttempt() {
        configure(Map.of("timer.repeat", "300ms", "timer.max-attempts", "3"));
        ingestHasReadUpTo(Long.MAX_VALUE / 2);
        startTimer();

        store.apply(List.of(OrderUpdate.active("o1", now() - TTL))).join();

        await().atMost(Duration.ofSeconds(20)).until(() -> expiries().size() == 3);
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(11))
                .until(() -> expiries().size() == 3);
        List<TimerExpired> all = expiries();
        assertThat(all).extracting(TimerExpired::attempt).containsExactly(1, 2, 3);
        assertThat(all).extracting(TimerExpired::finalAttempt).containsExactly(false, false, true);
        assertThat(all.get(1).deadline()).isEqualTo(all.get(0).firedAt() + 300);
        assertThat(all.get(2).firedAt() - all.get(1).firedAt()).isGreaterThanOrEqualTo(300);
    }

    @Test
    void nothingFiresPastWhatIngestHasRead() {
        configure(Map.of());
        long ts = now() - TTL - 1_000;
        ingestHasReadUpTo(ts + TTL - 1);
        startTimer();

        appliedButUnread("o1", ts);

        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(12))
                .until(() -> expiries().isEmpty());
        ingestHasReadUpTo(ts + TTL);
        await().atMost(Duration.ofSeconds(10)).until(() -> expiries().size() == 1);
    }

    @Test
    void nothingFiresBeforeIngestHasReportedAnyWatermark() {
        configure(Map.of());
        startTimer();

        appliedButUnread("o1", now() - TTL - 1_000);

        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(12))
                .until(() -> expiries().isEmpty());
        ingestHasReadUpTo(now());
        await().atMost(Duration.ofSeconds(10)).until(() -> expiries().size() == 1);
    }

    @Test
    void twoInstancesShareTheShardsAndFireEachExpiryOnce() {
        configure(Map.of());
        ingestHasReadUpTo(Long.MAX_VALUE / 2);
        TimerService first = startTimer();
        TimerService second = startTimer();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> first.ownedShards().size() + second.ownedShards().size() == 16
                        && !first.ownedShards().isEmpty()
                        && !second.ownedShards().isEmpty());

        List<OrderUpdate> orders = new ArrayList<>();
        long ts = now() - TTL + 1_000;
        for (int i = 0; i < 500; i++) {
            orders.add(OrderUpdate.active("order-" + i, ts + i));
        }
        store.apply(orders).join();

        await().atMost(Duration.ofSeconds(20)).until(() -> expiries().size() >= 500);
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(11))
                .until(() -> expiries().size() == 500);
        Map<String, Long> perOrder =
                expiries().stream().collect(Collectors.groupingBy(TimerExpired::orderId, Collectors.counting()));
        assertThat(perOrder).hasSize(500).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
    }

    /**
     * Changing timer.shards as the user guide says: the timer stops, the last of its group, so it stays a member
     * (GroupDeparture), and starts again with twice the shards, growing the shard topic before it joins. Kafka hands a
     * static member that returns to a group it never left its previous assignment without a rebalance, so unless the
     * timer sees that nobody holds the new partitions, every order of the new shards is never fired.
     */
    @Test
    void aTimerThatStartsAgainWithMoreShardsFiresTheOrdersOfEveryShard() throws Exception {
        Namespace namespace = TestRun.namespace("reshard");
        try (TimerPipeline before = new TimerPipeline(
                stack.bootstrapServers(), stack.redisUri(), namespace, settings(Map.of("timer.shards", "2")))) {
            TimerService timer = before.startTimer();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> timer.ownedShards().size() == 2);
        }
        configure(namespace, Map.of("timer.shards", "4"));
        ingestHasReadUpTo(Long.MAX_VALUE / 2);
        startTimer();
        List<String> onePerShard = IntStream.range(0, 1_000)
                .mapToObj(i -> "o" + i)
                .collect(Collectors.toMap(store.keys()::shardOf, id -> id, (first, next) -> first))
                .values()
                .stream()
                .toList();
        assertThat(onePerShard).hasSize(4);

        store.apply(onePerShard.stream()
                        .map(id -> OrderUpdate.active(id, now() - TTL))
                        .toList())
                .join();

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() ->
                        assertThat(expiries()).extracting(TimerExpired::orderId).containsAll(onePerShard));
    }

    @Test
    void theShardsOfAStoppedInstanceAreTakenOver() {
        configure(Map.of());
        ingestHasReadUpTo(Long.MAX_VALUE / 2);
        TimerService first = startTimer();
        TimerService second = startTimer();
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        !first.ownedShards().isEmpty() && !second.ownedShards().isEmpty());

        first.close();

        await().atMost(Duration.ofSeconds(30)).until(() -> second.ownedShards().size() == 16);
        store.apply(List.of(OrderUpdate.active("o1", now() - TTL))).join();
        await().atMost(Duration.ofSeconds(10)).until(() -> expiries().size() == 1);
        assertThat(expiries()).extracting(TimerExpired::orderId).containsExactly("o1");
    }

    /**
     * Issue 41's randomized runs saw live orders fire seconds after shards moved between two timers, and first expiries
     * whose deadline was not their last push's, with a lease shorter than the ttl. Here the shards move between timers
     * again and again while live orders push and silent ones come due: none of the live ones fires, and every silent one
     * fires first with its own deadline.
     */
    @Test
    void whileShardsMoveBetweenTimersNoLiveOrderFiresAndEverySilentOneFiresWithItsDeadline() throws Exception {
        configure(Map.of("timer.lease", "1s"));
        List<String> live = IntStream.range(0, 40).mapToObj(i -> "live-" + i).toList();
        List<String> silent =
                IntStream.range(0, 40).mapToObj(i -> "silent-" + i).toList();
        Map<String, Long> silentSince = new HashMap<>();
        AtomicBoolean pushing = new AtomicBoolean(true);
        // ingest's part: apply every live order's push, then report the watermark as far as what was applied
        Thread ingest = new Thread(() -> {
            while (pushing.get()) {
                long ts = now();
                store.apply(live.stream().map(id -> OrderUpdate.active(id, ts)).toList())
                        .join();
                ingestHasReadUpTo(ts);
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
            }
        });
        ingest.start();
        try {
            TimerService current = startTimer();
            long ts = now();
            store.apply(silent.stream().map(id -> OrderUpdate.active(id, ts)).toList())
                    .join();
            silent.forEach(id -> silentSince.put(id, ts));
            long until = now() + 4 * TTL;
            while (now() < until) {
                TimerService next = startTimer();
                TimerService previous = current;
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> !next.ownedShards().isEmpty());
                previous.close();
                current = next;
            }
        } finally {
            pushing.set(false);
            ingest.join();
        }

        await().atMost(Duration.ofSeconds(30))
                .until(() -> expiries().stream()
                        .map(TimerExpired::orderId)
                        .collect(Collectors.toSet())
                        .containsAll(silent));
        assertThat(expiries()).extracting(TimerExpired::orderId).doesNotContainAnyElementsOf(live);
        Map<String, TimerExpired> first = expiries().stream()
                .filter(e -> e.attempt() == 1)
                .collect(Collectors.toMap(TimerExpired::orderId, e -> e, (a, b) -> a));
        assertThat(silent).allSatisfy(id -> assertThat(first.get(id).deadline()).isEqualTo(silentSince.get(id) + TTL));
    }

    @Test
    void aTimerStoppedWhileFiringAcknowledgesWhatItPublishedSoItsSuccessorFiresNothingTwice() {
        configure(Map.of("timer.lease", "1s"));
        ingestHasReadUpTo(Long.MAX_VALUE / 2);
        List<OrderUpdate> orders = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            orders.add(OrderUpdate.active("order-" + i, now() - TTL - 1_000));
        }
        store.apply(orders).join();
        TimerService first = startTimer();

        await().atMost(Duration.ofSeconds(20)).until(() -> !expiries().isEmpty());
        first.close();
        startTimer();

        await().atMost(Duration.ofSeconds(20)).until(() -> expiries().size() >= 3_000);
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(12))
                .until(() -> expiries().size() == 3_000);
        assertThat(expiries().stream().map(TimerExpired::orderId).distinct()).hasSize(3_000);
    }
}
