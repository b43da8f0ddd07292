package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.compensator.fold.CompensatorTopology;
import io.lapse.devstack.DevStack;
import io.lapse.devstack.KafkaBroker;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.store.timers.OrderView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis loses everything while 500 orders are watched: 30 have finished, 30 were given up after their last attempt,
 * 50 went silent (25 of them fired already), and the rest keep pushing. Ingest, timer, puller and compensator run
 * against a real Kafka, Redis and an HTTP upstream; the compensator must notice the loss at once and rebuild exactly
 * what Redis held.
 */
@ExtendWith(SharedStack.class)
@Tag("slow")
class RedisLossTest {

    private static final Duration TTL = Duration.ofSeconds(4);
    private static final Duration PUSH_EVERY = Duration.ofSeconds(1);
    private static final int MAX_ATTEMPTS = 3;
    private static final Duration GENEROUS = Duration.ofSeconds(60);
    private static final int PARTITIONS = 3;

    @TempDir
    Path stateDir;

    private static Map<String, String> settings(FleetUpstream upstream) {
        return Map.of(
                "timer.ttl",
                TTL.toMillis() + "ms",
                "timer.repeat",
                "1s",
                "timer.max-attempts",
                Integer.toString(MAX_ATTEMPTS),
                "upstream.base-url",
                upstream.baseUrl(),
                "compensator.scan-interval",
                "5s");
    }

    @Test
    void afterAFlushEverySilentOrderFiresItsNextAttemptAndNothingElseFires(DevStack stack) throws Exception {
        watchAFleetThroughALoss(
                stack,
                lapse -> lapse.redis.async().flushall().toCompletableFuture().join());
    }

    @Test
    @Tag("extended")
    void afterARestartWithoutPersistenceEverySilentOrderFiresItsNextAttemptAndNothingElseFires(DevStack stack)
            throws Exception {
        watchAFleetThroughALoss(stack, lapse -> stack.redis().restart());
    }

    private void watchAFleetThroughALoss(DevStack stack, Consumer<RunningLapse> loss) throws Exception {
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse = new RunningLapse(stack.bootstrapServers(), stack.redisUri(), settings(upstream))) {
            lapse.startPipeline().startCompensator(stateDir);
            try (Fleet fleet = new Fleet(lapse.producer(), lapse.config.topics().push(), upstream, 500)) {
                watchThroughALoss(lapse, fleet, () -> loss.accept(lapse));
            }
        }
    }

    /**
     * The state directory holds checkpoints and a store of the same application against another cluster, where all
     * these orders finished, with changelog offsets lower than this cluster's: Kafka Streams would restore from the
     * middle of this cluster's changelog on top of the other cluster's orders.
     */
    @Test
    @Tag("extended")
    void aStateDirectoryLeftByARunAgainstAnotherBrokerChangesNothing(DevStack stack) throws Exception {
        String name = "elsewhere-" + System.nanoTime() % 100_000;
        try (KafkaBroker other = KafkaBroker.start();
                FleetUpstream upstream = FleetUpstream.start();
                RunningLapse there = new RunningLapse(
                        other.bootstrapServers(),
                        stack.redisUri(),
                        name,
                        Map.of("redis.key-prefix", name + "-there"))) {
            there.startCompensator(stateDir);
            Fleet finished = new Fleet(there.producer(), there.config.topics().push(), upstream, 500);
            finished.finish(finished.orders());
            await().atMost(GENEROUS).until(() -> changelogRecords(there) >= 500);
        }
        try (FleetUpstream upstream = FleetUpstream.start();
                RunningLapse lapse =
                        new RunningLapse(stack.bootstrapServers(), stack.redisUri(), name, settings(upstream))) {
            lapse.startPipeline();
            // this cluster's changelog gets further than the other one's before the old state directory is used
            CompensatorService earlier = lapse.startCompensator(stateDir.resolve("earlier"));
            try (Fleet fleet = new Fleet(lapse.producer(), lapse.config.topics().push(), upstream, 500)) {
                fleet.start(PUSH_EVERY);
                await().atMost(GENEROUS).until(() -> changelogRecords(lapse) >= 1_500);
                earlier.close();
                lapse.startCompensator(stateDir);
                watchThroughALoss(
                        lapse,
                        fleet,
                        () -> lapse.redis
                                .async()
                                .flushall()
                                .toCompletableFuture()
                                .join());
            }
        }
    }

    private static long changelogRecords(RunningLapse lapse) throws Exception {
        try (var admin = lapse.clients.admin()) {
            String topic =
                    CompensatorTopology.changelog(lapse.config.compensator().applicationId());
            var partitions = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get()
                    .get(topic)
                    .partitions();
            var latest =
                    new HashMap<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec>();
            partitions.forEach(p -> latest.put(
                    new org.apache.kafka.common.TopicPartition(topic, p.partition()),
                    org.apache.kafka.clients.admin.OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get().values().stream()
                    .mapToLong(i -> i.offset())
                    .sum();
        } catch (java.util.concurrent.ExecutionException e) {
            return 0; // the topic does not exist yet
        }
    }

    /** The fleet pushes (from now on, unless it does already) through a loss of Redis's data. */
    private void watchThroughALoss(RunningLapse lapse, Fleet fleet, Runnable loss) {
        List<String> orders = fleet.orders();
        List<String> finished = orders.subList(0, 30);
        List<String> givenUp = orders.subList(30, 60);
        List<String> silentEarly = orders.subList(60, 85);
        List<String> silentLate = orders.subList(85, 110);
        List<String> live = orders.subList(110, 500);
        List<String> silent = orders.subList(60, 110);
        List<String> replayed = orders.subList(0, 60);
        lapse.pulls();
        await().atMost(GENEROUS)
                .until(() -> lapse.compensator().isReady()
                        && lapse.hasEveryEpoch()
                        && lapse.compensator().localMirror().partitions().size() == PARTITIONS);
        fleet.start(PUSH_EVERY);
        await().atMost(GENEROUS)
                .until(() -> phases(lapse, orders).values().stream().allMatch(phase -> phase == OrderView.Phase.ARMED));

        fleet.finish(finished);
        fleet.silence(givenUp);
        await().atMost(GENEROUS)
                .until(() -> givenUp.stream()
                                .allMatch(id -> latestAttempts(lapse.expiries()).getOrDefault(id, 0) == MAX_ATTEMPTS)
                        && phases(lapse, finished).values().stream().allMatch(p -> p == OrderView.Phase.ENDED));
        fleet.silence(silentEarly);
        await().atMost(GENEROUS)
                .until(() -> latestAttempts(lapse.expiries()).keySet().containsAll(silentEarly));
        fleet.silence(silentLate);
        int before = lapse.expiries().size();
        Map<String, Integer> attemptsBefore = latestAttempts(lapse.expiries());
        Set<String> epochsBefore = Set.copyOf(lapse.epochs.current().join().values());

        loss.run();
        long lossAt = System.currentTimeMillis();
        fleet.replay(replayed); // most likely before the rebuild: Redis has no tombstones then

        await().atMost(GENEROUS).untilAsserted(() -> {
            Map<String, TimerExpired> firstAfter = new HashMap<>();
            expiriesAfter(lapse, before)
                    .forEach(e -> firstAfter.merge(e.orderId(), e, (a, b) -> a.attempt() <= b.attempt() ? a : b));
            Set<String> pulled = lapse.pulls().stream()
                    .filter(p -> p.outcome() == PullResult.Outcome.OK)
                    .map(p -> triple(
                            p.orderId(), p.expiry().deadline(), p.expiry().attempt()))
                    .collect(Collectors.toSet());
            for (String orderId : silent) {
                TimerExpired next = firstAfter.get(orderId);
                assertThat(next).as("expiry of %s after the loss", orderId).isNotNull();
                assertThat(next.attempt())
                        .as("attempt of %s after the loss", orderId)
                        .isEqualTo(attemptsBefore.getOrDefault(orderId, 0) + 1);
                assertThat(next.firedAt() - lossAt)
                        .as("%s fired ms after the loss", orderId)
                        .isLessThanOrEqualTo(TTL.plusSeconds(5).toMillis());
                assertThat(pulled).contains(triple(orderId, next.deadline(), next.attempt()));
            }
        });
        await().atMost(GENEROUS).until(lapse::hasEveryEpoch);
        assertThat(lapse.epochs.current().join().values()).doesNotContainAnyElementsOf(epochsBefore);
        fleet.replay(replayed); // now Redis has its tombstones and marks back

        // the given-up and finished orders would fire within a ttl of the replays if anything revived them
        await().during(TTL.plusSeconds(1))
                .atMost(TTL.plusSeconds(15))
                .untilAsserted(() -> assertThat(expiriesAfter(lapse, before))
                        .extracting(TimerExpired::orderId)
                        .doesNotContainAnyElementsOf(replayed));
        List<TimerExpired> all = lapse.expiries();
        assertThat(all)
                .extracting(TimerExpired::orderId)
                .as("no live order fires")
                .doesNotContainAnyElementsOf(live);
        assertThat(all).extracting(TimerExpired::orderId).doesNotContainAnyElementsOf(finished);
        assertThat(all)
                .extracting(e -> triple(e.orderId(), e.deadline(), e.attempt()))
                .as("no expiry repeats a triple already published")
                .doesNotHaveDuplicates();
        assertThat(lapse.compensatorMetrics()
                        .get("lapse.compensator.expiries.recovered")
                        .counter()
                        .count())
                .isGreaterThanOrEqualTo(silent.size());
    }

    private static String triple(String orderId, long deadline, int attempt) {
        return orderId + "/" + deadline + "/" + attempt;
    }

    private static Map<String, OrderView.Phase> phases(RunningLapse lapse, List<String> orders) {
        Map<String, OrderView.Phase> phases = new HashMap<>();
        lapse.store.inspect(orders).join().forEach((id, view) -> phases.put(id, view.phase()));
        return phases;
    }

    /** Each order's last attempt since its newest status the timer counted from. */
    /** Those recorded after the first {@code before}, from one snapshot: the recorder goes on adding meanwhile. */
    private static List<TimerExpired> expiriesAfter(RunningLapse lapse, int before) {
        List<TimerExpired> all = lapse.expiries();
        return all.subList(before, all.size());
    }

    private static Map<String, Integer> latestAttempts(List<TimerExpired> expiries) {
        Map<String, TimerExpired> latest = new HashMap<>();
        expiries.forEach(e -> latest.merge(
                e.orderId(),
                e,
                (a, b) -> a.lastSeen() != b.lastSeen()
                        ? (a.lastSeen() > b.lastSeen() ? a : b)
                        : (a.attempt() >= b.attempt() ? a : b)));
        Map<String, Integer> attempts = new HashMap<>();
        latest.forEach((orderId, e) -> attempts.put(orderId, e.attempt()));
        return attempts;
    }
}
