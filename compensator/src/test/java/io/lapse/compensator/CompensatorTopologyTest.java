package io.lapse.compensator;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.config.TopicNames;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** The compensator's topology on its own: what it remembers of each order, and what its scans hand to the repair. */
class CompensatorTopologyTest {

    private static final TopicNames TOPICS = TopicNames.defaults();
    private static final Duration SCAN = Duration.ofSeconds(10);
    private static final long NOW = 1_763_780_000_000L;
    private static final TimerSettings TIMER = TimerSettings.from(ConfigSource.defaults()
            .with(Map.of("timer.tombstone-retention", "1h", "timer.max-clock-skew", "5s")));
    private static final long RETENTION = Duration.ofHours(1).toMillis();

    @TempDir
    Path stateDir;

    private final RecordingRepair repair = new RecordingRepair();
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> pushes;
    private TestInputTopic<String, byte[]> pulls;
    private KeyValueStore<String, OrderState> orders;

    @BeforeEach
    void startDriver() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "compensator-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(CompensatorTopology.build(TOPICS, TIMER, SCAN, () -> repair), props,
                Instant.ofEpochMilli(NOW));
        pushes = driver.createInputTopic(TOPICS.push(), new StringSerializer(), new ByteArraySerializer());
        pulls = driver.createInputTopic(TOPICS.pulled(), new StringSerializer(), new ByteArraySerializer());
        orders = driver.getKeyValueStore(CompensatorTopology.STORE);
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    private void push(String orderId, String status, long ts) {
        pushes.pipeInput(orderId, JsonCodec.STATUS_PUSH.encode(new StatusPush(orderId, status, ts)), NOW);
    }

    private void pull(PullResult result) {
        pulls.pipeInput(result.orderId(), JsonCodec.PULL_RESULT.encode(result), NOW);
    }

    private static TimerExpired expiry(String orderId) {
        return new TimerExpired(orderId, NOW, NOW - 90_000, 1, NOW, TimerExpired.Source.TIMER, false);
    }

    private void scan() {
        driver.advanceWallClockTime(SCAN);
    }

    @Test
    void keepsTheNewestStatusOfEachOrderAndIgnoresOlderOnesArrivingLate() {
        push("o1", "CHARGING", NOW - 3_000);
        push("o1", "CHARGING", NOW - 1_000);
        push("o1", "SUSPENDED", NOW - 2_000);
        push("o2", "CHARGING", NOW - 5_000);

        assertThat(orders.get("o1")).isEqualTo(new OrderState(NOW - 1_000, false));
        assertThat(orders.get("o2")).isEqualTo(new OrderState(NOW - 5_000, false));
    }

    @Test
    void aTerminalStatusEndsTheOrderAndALaterReplayedStatusDoesNotReviveIt() {
        push("o1", "CHARGING", NOW - 3_000);
        push("o1", "finished", NOW - 2_000);
        push("o1", "CHARGING", NOW - 2_500);
        push("o1", "CHARGING", NOW - 1_000);

        assertThat(orders.get("o1")).isEqualTo(new OrderState(NOW - 2_000, true));
    }

    @Test
    void aNotFoundPullRemovesTheOrderUnlessANewerStatusIsKnown() {
        push("gone", "CHARGING", NOW - 3_000);
        push("alive", "CHARGING", NOW - 1_000);

        pull(PullResult.notFound(expiry("gone"), NOW - 2_000));
        pull(PullResult.notFound(expiry("alive"), NOW - 2_000));

        assertThat(orders.get("gone")).isNull();
        assertThat(orders.get("alive")).isEqualTo(new OrderState(NOW - 1_000, false));
    }

    @Test
    void anOkPullCountsAsAStatusWhileFailedAndSkippedPullsChangeNothing() {
        push("o1", "CHARGING", NOW - 3_000);
        push("o2", "CHARGING", NOW - 3_000);

        pull(PullResult.ok(expiry("o1"), new StatusPush("o1", "CHARGING", NOW - 1_000), NOW));
        pull(PullResult.failed(expiry("o2"), "upstream timed out", NOW));
        pull(PullResult.skipped(expiry("o2"), NOW));

        assertThat(orders.get("o1")).isEqualTo(new OrderState(NOW - 1_000, false));
        assertThat(orders.get("o2")).isEqualTo(new OrderState(NOW - 3_000, false));
    }

    @Test
    void invalidRecordsAreDroppedAndTheNextValidOneIsStillRead() {
        pushes.pipeInput("bad", "{not json".getBytes(StandardCharsets.UTF_8), NOW);
        pushes.pipeInput("bad", null, NOW);
        pushes.pipeInput("other", JsonCodec.STATUS_PUSH.encode(new StatusPush("bad", "CHARGING", NOW)), NOW);
        pulls.pipeInput("bad", "{\"orderId\":\"bad\"}".getBytes(StandardCharsets.UTF_8), NOW);
        push("good", "CHARGING", NOW - 1_000);

        assertThat(orders.get("bad")).isNull();
        assertThat(orders.get("good")).isEqualTo(new OrderState(NOW - 1_000, false));
    }

    @Test
    void recordsWithoutAKeyAreKeyedByTheirOrderId() {
        pushes.pipeInput(null, JsonCodec.STATUS_PUSH.encode(new StatusPush("o1", "CHARGING", NOW - 1_000)), NOW);

        assertThat(orders.get("o1")).isEqualTo(new OrderState(NOW - 1_000, false));
    }

    @Test
    void aMissingTsFallsBackToTheRecordTimestampAndAFutureTsIsClampedToTheReadTime() {
        pushes.pipeInput("no-ts", "{\"orderId\":\"no-ts\",\"status\":\"CHARGING\"}".getBytes(StandardCharsets.UTF_8),
                NOW - 7_000);
        push("future", "CHARGING", NOW + 60_000);

        assertThat(orders.get("no-ts")).isEqualTo(new OrderState(NOW - 7_000, false));
        assertThat(orders.get("future")).isEqualTo(new OrderState(NOW, false));
    }

    @Test
    void aScanHandsOnlyActiveOrdersAtOrBelowTheWatermarkToTheRepair() {
        push("old", "CHARGING", NOW - 5_000);
        push("at", "CHARGING", NOW - 2_000);
        push("newer", "CHARGING", NOW - 1_000);
        push("ended", "CHARGING", NOW - 6_000);
        push("ended", "FINISHED", NOW - 5_500);
        repair.watermark = OptionalLong.of(NOW - 2_000);

        scan();

        assertThat(repair.drain()).isEqualTo(Map.of("old", NOW - 5_000, "at", NOW - 2_000));
    }

    @Test
    void nothingIsHandedToTheRepairWhileIngestHasReportedNoWatermark() {
        push("o1", "CHARGING", NOW - 5_000);

        scan();

        assertThat(repair.calls).isEmpty();
        assertThat(orders.get("o1")).isNotNull();
    }

    @Test
    void aScanForgetsOrdersOlderThanTheRetentionWhetherEndedOrActive() {
        push("dead", "CHARGING", NOW - 1_000);
        push("ended", "FINISHED", NOW - 1_000);
        driver.advanceWallClockTime(Duration.ofMillis(RETENTION - SCAN.toMillis()));
        push("alive", "CHARGING", NOW + RETENTION - 5_000);
        repair.watermark = OptionalLong.of(NOW + RETENTION);
        repair.drain();

        scan();

        assertThat(orders.get("dead")).isNull();
        assertThat(orders.get("ended")).isNull();
        assertThat(repair.drain()).isEqualTo(Map.of("alive", NOW + RETENTION - 5_000));
    }

    @Test
    void aScanWalksEveryOrderOnceInChunks() {
        int count = RepairScan.CHUNK * 2 + 500;
        for (int i = 0; i < count; i++) {
            push("order-" + i, "CHARGING", NOW - 1_000);
        }
        repair.watermark = OptionalLong.of(NOW);

        scan();

        assertThat(repair.calls).hasSize(3).allSatisfy(call -> assertThat(call).hasSizeLessThanOrEqualTo(RepairScan.CHUNK));
        assertThat(repair.drain()).hasSize(count);
    }

    @Test
    void aFailingRepairIsRetriedOnTheNextScanWithoutStoppingTheTopology() {
        push("o1", "CHARGING", NOW - 5_000);
        repair.watermark = OptionalLong.of(NOW);
        repair.failure = new IllegalStateException("Redis is down");

        scan();
        repair.failure = null;
        push("o2", "CHARGING", NOW - 4_000);
        scan();

        assertThat(repair.drain()).isEqualTo(Map.of("o1", NOW - 5_000, "o2", NOW - 4_000));
    }
}
