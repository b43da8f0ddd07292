package io.lapse.compensator.fold;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compensator's topology on its own: what it remembers of each order, and what it skips. Pushes come as the push
 * folder hands them over, through the repartition topic; pull results and expiries as they are published.
 */
@Tag("slow")
class CompensatorTopologyTest {

    private static final TopicNames TOPICS = TopicNames.defaults();
    private static final Duration PRUNE = Duration.ofSeconds(10);
    private static final long NOW = 1_763_780_000_000L;
    private static final TimerSettings TIMER = TimerSettings.from(
            ConfigSource.defaults().with(Map.of("timer.tombstone-retention", "1h", "timer.max-clock-skew", "5s")));
    private static final long RETENTION = Duration.ofHours(1).toMillis();
    private static final long TTL = TIMER.ttl().toMillis();
    /** The driver runs one task, partition 0's: orders of the other five partitions take the repartition topic. */
    private static final int PARTITIONS = 6;

    private static final MirrorPartition MIRROR = new MirrorPartition(PARTITIONS);

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, MirrorInput> pushes;
    private TestInputTopic<String, byte[]> pulls;
    private TestInputTopic<String, byte[]> expiries;
    private TestOutputTopic<String, byte[]> deadLetters;
    private TestOutputTopic<String, byte[]> moved;
    private TestOutputTopic<String, byte[]> published;
    private KeyValueStore<String, OrderState> orders;

    @BeforeEach
    void startDriver() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "compensator-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(
                CompensatorTopology.build(TOPICS, TIMER, PRUNE, PARTITIONS), props, Instant.ofEpochMilli(NOW));
        pushes = driver.createInputTopic(
                CompensatorTopology.repartitionTopic("compensator-test"),
                new StringSerializer(),
                MirrorInputSerde.serde().serializer());
        pulls = driver.createInputTopic(TOPICS.pulled(), new StringSerializer(), new ByteArraySerializer());
        expiries = driver.createInputTopic(TOPICS.expired(), new StringSerializer(), new ByteArraySerializer());
        deadLetters = driver.createOutputTopic(TOPICS.dlq(), new StringDeserializer(), new ByteArrayDeserializer());
        moved = driver.createOutputTopic(
                CompensatorTopology.repartitionTopic("compensator-test"),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        published = driver.createOutputTopic(TOPICS.expired(), new StringDeserializer(), new ByteArrayDeserializer());
        orders = driver.getKeyValueStore(CompensatorTopology.STORE);
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    /** A push as the push folder hands it over, read by ingest's rules. */
    private void push(String orderId, String status, long ts) {
        OrderUpdate update =
                TIMER.isTerminal(status) ? OrderUpdate.terminal(orderId, ts) : OrderUpdate.active(orderId, ts);
        pushes.pipeInput(orderId, new MirrorInput.Status(update), NOW);
    }

    private void pull(PullResult result) {
        pulls.pipeInput(result.orderId(), JsonCodec.PULL_RESULT.encode(result), NOW);
    }

    private void fire(TimerExpired expiry) {
        expiries.pipeInput(expiry.orderId(), JsonCodec.TIMER_EXPIRED.encode(expiry), NOW);
    }

    private static TimerExpired expiry(String orderId, long lastSeen, int attempt, boolean last) {
        return new TimerExpired(orderId, lastSeen + 90_000, lastSeen, attempt, NOW, TimerExpired.Source.TIMER, last);
    }

    @Test
    void keepsTheNewestStatusOfEachOrderAndIgnoresOlderOnesArrivingLate() {
        push("o1", "CHARGING", NOW - 3_000);
        push("o1", "CHARGING", NOW - 1_000);
        push("o1", "SUSPENDED", NOW - 2_000);
        push("o2", "CHARGING", NOW - 5_000);

        assertThat(orders.get("o1")).isEqualTo(OrderState.active(NOW - 1_000));
        assertThat(orders.get("o2")).isEqualTo(OrderState.active(NOW - 5_000));
    }

    @Test
    void aTerminalStatusEndsTheOrderAndALaterReplayedStatusDoesNotReviveIt() {
        push("o1", "CHARGING", NOW - 3_000);
        push("o1", "finished", NOW - 2_000);
        push("o1", "CHARGING", NOW - 2_500);
        push("o1", "CHARGING", NOW - 1_000);

        assertThat(orders.get("o1").phase()).isEqualTo(OrderState.Phase.ENDED);
        assertThat(orders.get("o1").endedAt()).isEqualTo(NOW - 2_000);
    }

    @Test
    void aNotFoundPullEndsTheOrderUnlessANewerStatusIsKnown() {
        push("gone", "CHARGING", NOW - 3_000);
        push("alive", "CHARGING", NOW - 1_000);

        pull(PullResult.notFound(expiry("gone", NOW - 3_000, 1, false), NOW - 2_000));
        pull(PullResult.notFound(expiry("alive", NOW - 3_000, 1, false), NOW - 2_000));

        assertThat(orders.get("gone").phase()).isEqualTo(OrderState.Phase.GONE);
        assertThat(orders.get("alive")).isEqualTo(OrderState.active(NOW - 1_000));
    }

    @Test
    void anOkPullCountsAsAStatusWhileFailedAndSkippedPullsChangeNothing() {
        push("o1", "CHARGING", NOW - 3_000);
        push("o2", "CHARGING", NOW - 3_000);

        pull(PullResult.ok(expiry("o1", NOW - 3_000, 1, false), new StatusPush("o1", "CHARGING", NOW - 1_000), NOW));
        pull(PullResult.failed(expiry("o2", NOW - 3_000, 1, false), "upstream timed out", NOW));
        pull(PullResult.skipped(expiry("o2", NOW - 3_000, 1, false), NOW));

        assertThat(orders.get("o1")).isEqualTo(OrderState.active(NOW - 1_000));
        assertThat(orders.get("o2")).isEqualTo(OrderState.active(NOW - 3_000));
    }

    @Test
    void publishedExpiriesCountTheAttemptsAndTheFinalOneGivesTheOrderUp() {
        push("o1", "CHARGING", NOW - 200_000);

        fire(expiry("o1", NOW - 200_000, 1, false));
        assertThat(orders.get("o1").fired()).isEqualTo(1);
        fire(expiry("o1", NOW - 200_000, 2, true));

        assertThat(orders.get("o1").fired()).isEqualTo(2);
        assertThat(orders.get("o1").givenUp()).isTrue();
    }

    @Test
    void invalidRecordsAreSkippedWithoutADeadLetterOfItsOwnAndTheNextValidOneIsStillRead() {
        pulls.pipeInput("bad", "{not json".getBytes(StandardCharsets.UTF_8), NOW);
        pulls.pipeInput("bad", "{\"orderId\":\"bad\"}".getBytes(StandardCharsets.UTF_8), NOW);
        expiries.pipeInput("bad", "{\"orderId\":\"bad\",\"attempt\":0}".getBytes(StandardCharsets.UTF_8), NOW);
        push("good", "CHARGING", NOW - 1_000);

        assertThat(orders.get("bad")).isNull();
        assertThat(orders.get("good")).isEqualTo(OrderState.active(NOW - 1_000));
        assertThat(deadLetters.isEmpty())
                .as("ingest and the puller write the one dead letter of each")
                .isTrue();
    }

    @Test
    void recordsWithoutAKeyAreKeyedByTheirOrderId() {
        fire(expiry("o1", NOW - 200_000, 1, false));
        expiries.pipeInput(null, JsonCodec.TIMER_EXPIRED.encode(expiry("o1", NOW - 200_000, 2, false)), NOW);

        assertThat(orders.get("o1").fired()).isEqualTo(2);
    }

    @Test
    void ordersNothingHappenedToForTheRetentionAreForgottenWhetherEndedOrActive() {
        push("dead", "CHARGING", NOW - 1_000);
        push("ended", "FINISHED", NOW - 1_000);
        driver.advanceWallClockTime(Duration.ofMillis(RETENTION - PRUNE.toMillis()));
        push("alive", "CHARGING", NOW + RETENTION - 5_000);

        driver.advanceWallClockTime(PRUNE);

        assertThat(orders.get("dead")).isNull();
        assertThat(orders.get("ended")).isNull();
        assertThat(orders.get("alive")).isNotNull();
    }

    @Test
    void anOrderKeptInThisTasksPartitionFoldsAtOnceAndAnyOtherGoesThroughTheRepartitionTopicFirst() {
        String here = orderIn(0);
        String elsewhere = orderIn(3);
        for (String orderId : List.of(here, elsewhere)) {
            push(orderId, "CHARGING", NOW - 200_000);
            fire(expiry(orderId, NOW - 200_000, 1, false));
            pull(PullResult.ok(
                    expiry(orderId, NOW - 200_000, 1, false), new StatusPush(orderId, "CHARGING", NOW - 1_000), NOW));
        }

        assertThat(orders.get(here)).isEqualTo(OrderState.active(NOW - 1_000));
        assertThat(orders.get(elsewhere)).isEqualTo(OrderState.active(NOW - 1_000));
        assertThat(moved.readKeyValuesToList())
                .as("the expiry and the pull of the order kept in partition 3, and none of the other's (pushes come"
                        + " through the repartition topic from the push folder)")
                .extracting(record -> record.key)
                .containsExactly(elsewhere, elsewhere);
    }

    /** An orderId whose state the mirror keeps in this partition. */
    private static String orderIn(int partition) {
        return IntStream.range(0, 1_000)
                .mapToObj(i -> "order-" + i)
                .filter(orderId -> MIRROR.of(orderId) == partition)
                .findFirst()
                .orElseThrow();
    }

    /** The push folder's report of a silence its pushes had: a push at endedBy after the one at lastSeen. */
    private void silence(String orderId, long lastSeen, long endedBy) {
        pushes.pipeInput(orderId, new MirrorInput.Silence(orderId, lastSeen, endedBy), NOW);
    }

    private List<TimerExpired> publishedExpiries() {
        return published.readValuesToList().stream()
                .map(JsonCodec.TIMER_EXPIRED::decode)
                .toList();
    }

    @Test
    void aSilenceThatEndedWithoutAnExpiryIsFiredByTheCompensatorOnceItsGraceIsOverAsTheTimerWouldHave() {
        long lastSeen = NOW - 200_000;
        push("o1", "CHARGING", lastSeen);
        silence("o1", lastSeen, NOW - 10_000);
        push("o1", "CHARGING", NOW - 10_000);
        push("o2", "CHARGING", lastSeen);
        // the folder read no push of o2 before: it restarted, or o2 was silent for a whole round
        pushes.pipeInput("o2", new MirrorInput.Resumed(OrderUpdate.active("o2", NOW - 5_000), NOW - 10_000), NOW);

        driver.advanceWallClockTime(UnfiredSilences.GRACE.minusSeconds(1));
        assertThat(publishedExpiries()).as("within the grace").isEmpty();
        driver.advanceWallClockTime(Duration.ofSeconds(2));

        List<TimerExpired> fired = publishedExpiries();
        assertThat(fired).extracting(TimerExpired::orderId).containsExactlyInAnyOrder("o1", "o2");
        assertThat(fired.get(1).lastSeen()).isEqualTo(lastSeen);
        TimerExpired expiry =
                fired.stream().filter(e -> e.orderId().equals("o1")).findFirst().orElseThrow();
        assertThat(expiry.orderId()).isEqualTo("o1");
        assertThat(expiry.lastSeen()).isEqualTo(lastSeen);
        assertThat(expiry.deadline()).isEqualTo(lastSeen + TTL);
        assertThat(expiry.attempt()).isEqualTo(1);
        assertThat(expiry.source()).isEqualTo(TimerExpired.Source.COMPENSATOR);
        assertThat(orders.get("o1").lastSeen())
                .as("the order stays watched from its newest push")
                .isEqualTo(NOW - 10_000);
        driver.advanceWallClockTime(Duration.ofSeconds(10));
        assertThat(publishedExpiries()).as("once").isEmpty();
    }

    @Test
    void noSilenceIsFiredWhenTheTimersExpiryOfItComesWithinTheGraceOrAPullWithinTheTtlArrivesLate() {
        long lastSeen = NOW - 200_000;
        push("fired", "CHARGING", lastSeen);
        push("pulled", "CHARGING", lastSeen);
        silence("fired", lastSeen, NOW - 10_000);
        silence("pulled", lastSeen, NOW - 10_000);
        push("fired", "CHARGING", NOW - 10_000);
        push("pulled", "CHARGING", NOW - 10_000);
        driver.advanceWallClockTime(Duration.ofSeconds(1));

        fire(expiry("fired", lastSeen, 1, false));
        pull(PullResult.ok(
                expiry("pulled", lastSeen - 100_000, 1, false),
                new StatusPush("pulled", "CHARGING", lastSeen + 20_000),
                NOW));
        driver.advanceWallClockTime(UnfiredSilences.GRACE.multipliedBy(2));

        assertThat(publishedExpiries()).isEmpty();
    }

    @Test
    void noSilenceIsFiredForALiveOrderNorForOneThatEndedBeforeIt() {
        push("live", "CHARGING", NOW - 20_000);
        // the first push the folder read of it
        pushes.pipeInput("live", new MirrorInput.Resumed(OrderUpdate.active("live", NOW - 5_000), NOW - 5_000), NOW);
        push("ended", "CHARGING", NOW - 300_000);
        push("ended", "FINISHED", NOW - 290_000);
        silence("ended", NOW - 290_000, NOW - 10_000);
        push("ended", "CHARGING", NOW - 10_000);

        driver.advanceWallClockTime(UnfiredSilences.GRACE.multipliedBy(2));

        assertThat(publishedExpiries()).isEmpty();
    }

    /** The push folder's word that it handed over every push of the push topic's two partitions appended before then. */
    private void pushesHandedOverBefore(long upTo) {
        pushes.pipeInput("", new MirrorInput.PushesRead(upTo, 2, Set.of(0, 1)), NOW);
    }

    /** An OK pull of an earlier expiry whose status, at {@code statusAt}, is upstream's newest. */
    private void pulledStatus(String orderId, long statusAt) {
        pull(PullResult.ok(
                expiry(orderId, statusAt - 1_000_000, 1, false), new StatusPush(orderId, "CHARGING", statusAt), NOW));
    }

    @Test
    void aSilenceThatAPulledStatusAloneEndedIsFiredOnceThePushFolderHandedOverEveryPushBeforeIt() {
        long lastSeen = NOW - 200_000;
        for (String orderId : List.of(orderIn(0), orderIn(3))) {
            push(orderId, "CHARGING", lastSeen);
            pulledStatus(orderId, lastSeen + TTL + 500);
        }

        driver.advanceWallClockTime(UnfiredSilences.GRACE.multipliedBy(2));
        assertThat(publishedExpiries())
                .as("a push inside the silence may still be on its way to the mirror")
                .isEmpty();
        pushesHandedOverBefore(NOW + UnfiredSilences.GRACE.multipliedBy(2).toMillis());
        driver.advanceWallClockTime(Duration.ofSeconds(1));

        List<TimerExpired> fired = publishedExpiries();
        assertThat(fired).extracting(TimerExpired::orderId).containsExactlyInAnyOrder(orderIn(0), orderIn(3));
        assertThat(fired).allSatisfy(expiry -> {
            assertThat(expiry.lastSeen()).isEqualTo(lastSeen);
            assertThat(expiry.deadline()).isEqualTo(lastSeen + TTL);
            assertThat(expiry.attempt()).isEqualTo(1);
            assertThat(expiry.source()).isEqualTo(TimerExpired.Source.COMPENSATOR);
        });
        assertThat(orders.get(orderIn(0)).lastSeen())
                .as("the order stays watched from the pulled status")
                .isEqualTo(lastSeen + TTL + 500);
        driver.advanceWallClockTime(Duration.ofSeconds(10));
        assertThat(publishedExpiries()).as("once").isEmpty();
    }

    @Test
    void aSilenceAPulledStatusEndedIsFiredWithoutTheFoldersWordWhenItsPushesProveIt() {
        long lastSeen = NOW - 200_000;
        push("proven", "CHARGING", lastSeen);
        pulledStatus("proven", lastSeen + TTL + 500);
        // the folder read the push at lastSeen, then none until one after the pulled status
        silence("proven", lastSeen, lastSeen + TTL + 20_000);
        push("proven", "CHARGING", lastSeen + TTL + 20_000);

        driver.advanceWallClockTime(UnfiredSilences.GRACE.plusSeconds(1));

        assertThat(publishedExpiries()).extracting(TimerExpired::lastSeen).containsExactly(lastSeen);
    }

    @Test
    void noSilenceIsFiredForAPulledStatusWhenAPushCameInsideItOrTheSilenceAlreadyFired() {
        long lastSeen = NOW - 200_000;
        push("pushed", "CHARGING", lastSeen);
        pulledStatus("pushed", lastSeen + TTL + 500);
        // the push between, handed over at the folder's round after the pull was folded
        push("pushed", "CHARGING", lastSeen + TTL - 1_000);
        push("fired", "CHARGING", lastSeen);
        fire(expiry("fired", lastSeen, 1, false));
        pulledStatus("fired", lastSeen + TTL + 500);

        pushesHandedOverBefore(NOW + 60_000);
        driver.advanceWallClockTime(UnfiredSilences.GRACE.multipliedBy(2));

        assertThat(publishedExpiries()).isEmpty();
    }

    @Test
    void aSilenceWhoseEndingPushReachesTheMirrorAfterAnExpiryCountingFromItIsFiredOnceThePushesProveIt() {
        long lastSeen = NOW - 200_000;
        long ended = lastSeen + TTL + 10_000;
        long newest = ended + 5_000;
        push("late", "CHARGING", lastSeen);
        // the push folder lost its hand-over of the pushes from `ended` on (a restart) and reads them again, while the
        // next silence's expiry and the pull answering it reach the mirror first
        fire(expiry("late", newest, 1, false));
        pulledStatus("late", newest + TTL + 500);
        pushes.pipeInput("late", new MirrorInput.Resumed(OrderUpdate.active("late", newest), ended), NOW);

        driver.advanceWallClockTime(UnfiredSilences.GRACE.plusSeconds(1));

        List<TimerExpired> fired = publishedExpiries();
        assertThat(fired).extracting(TimerExpired::lastSeen).containsExactly(lastSeen);
        assertThat(fired.get(0).deadline()).isEqualTo(lastSeen + TTL);
        assertThat(fired.get(0).attempt()).isEqualTo(1);
    }

    @Test
    void noSilenceIsFiredForAnExpiryCountingFromANewerStatusWhenAPushCameBeforeTheDeadlineOrTheSilenceFired() {
        long lastSeen = NOW - 200_000;
        long newest = lastSeen + TTL + 15_000;
        push("live", "CHARGING", lastSeen);
        fire(expiry("live", newest, 1, false));
        // the pushes the mirror had not seen, handed over late: one before the deadline
        push("live", "CHARGING", lastSeen + TTL - 1_000);
        push("fired", "CHARGING", lastSeen);
        fire(expiry("fired", newest, 1, false));
        fire(expiry("fired", lastSeen, 1, false));

        pushesHandedOverBefore(NOW + 60_000);
        driver.advanceWallClockTime(UnfiredSilences.GRACE.multipliedBy(2));

        assertThat(publishedExpiries()).isEmpty();
    }
}
