package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.config.LapseConfig;
import io.lapse.config.RedisSettings;
import io.lapse.devstack.DevStackExtension;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.StatusPush;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.Watermarks;
import io.lapse.time.SettableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ingest loop's bookkeeping (what it commits, where it rewinds) with a consumer the test drives poll by poll.
 * Redis is real; the test holds back or fails one batch's write to it.
 */
@Tag("slow")
class IngestBatchesTest {

    private static final TopicPartition PUSH = new TopicPartition("push", 0);

    @RegisterExtension
    static final DevStackExtension server = DevStackExtension.redisOnly();

    private static RedisConnection redis;

    private MockConsumer<byte[], byte[]> consumer;
    private HeldStore store;
    private Watermarks watermarks;
    private IngestBatches batches;
    private EndOffsetProbe probe;
    /** When the probe asks the broker. */
    private SettableClock brokerClock;

    private boolean brokerAnswers;

    @BeforeAll
    static void startRedis() {
        redis = RedisConnection.open(new RedisSettings(server.redisUri(), false, "test"));
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void readThePushTopic() {
        redis.async().flushall().toCompletableFuture().join();
        LapseConfig config = LapseConfig.load(null, Map.of()).with(Map.of("topics.push", PUSH.topic()));
        TimerKeys keys = new TimerKeys("test", 16);
        store = new HeldStore(TimerStore.of(redis, keys, config.timer()));
        watermarks = Watermarks.of(redis, keys, config);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        consumer = new MockConsumer<>("earliest");
        IngestMetrics metrics = new IngestMetrics(registry);
        // the broker as this consumer knows it: its end offsets, one partition
        brokerClock = SettableClock.at(System.currentTimeMillis());
        brokerAnswers = true;
        probe = new EndOffsetProbe(
                (askedAt, partitions) -> brokerAnswers
                        ? CompletableFuture.completedFuture(
                                new CaughtUpProof(askedAt, consumer.endOffsets(partitions), Map.of(PUSH.topic(), 1)))
                        : CompletableFuture.failedFuture(new TimeoutException("the broker does not answer")),
                dueNow(),
                brokerClock,
                millis -> {});
        batches = new IngestBatches(
                consumer,
                new RecordReader(config.topics(), config.timer(), metrics),
                store.store(),
                watermarks,
                new DeadLetterSink(
                        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer()),
                        "dlq",
                        Clock.systemUTC(),
                        registry,
                        "ingest"),
                metrics,
                Clock.systemUTC(),
                probe,
                new PartitionProgress(
                        config.timer().watermarkSlack(), config.timer().ttl()));
        consumer.subscribe(List.of(PUSH.topic()), batches.rebalanceListener());
        consumer.rebalance(List.of(PUSH));
        consumer.updateBeginningOffsets(Map.of(PUSH, 0L));
        consumer.updateEndOffsets(Map.of(PUSH, 0L));
    }

    private void push(int fromOrder, int toOrder) {
        for (int i = fromOrder; i < toOrder; i++) {
            String id = "order-" + i;
            long now = System.currentTimeMillis();
            byte[] value = JsonCodec.STATUS_PUSH.encode(new StatusPush(id, "CHARGING", now));
            consumer.addRecord(new ConsumerRecord<>(
                    PUSH.topic(),
                    PUSH.partition(),
                    i,
                    now,
                    TimestampType.CREATE_TIME,
                    id.length(),
                    value.length,
                    id.getBytes(StandardCharsets.UTF_8),
                    value,
                    new RecordHeaders(),
                    Optional.empty()));
        }
    }

    private Long committed() {
        OffsetAndMetadata offset = consumer.committed(Set.of(PUSH)).get(PUSH);
        return offset == null ? null : offset.offset();
    }

    private boolean watched(int fromOrder, int toOrder) {
        List<String> ids =
                IntStream.range(fromOrder, toOrder).mapToObj(i -> "order-" + i).toList();
        return store.real.inspect(ids).join().values().stream().allMatch(OrderView::isWatched);
    }

    @Test
    void aBatchIsCommittedOnlyOnceRedisHasAppliedIt() throws Exception {
        push(0, 10);
        CompletableFuture<Void> redisAnswers = store.holdNextApply();
        turn();

        assertThat(committed()).isNull();

        redisAnswers.complete(null);
        turn();

        assertThat(committed()).isEqualTo(10);
        assertThat(watched(0, 10)).isTrue();
    }

    @Test
    void aFailedBatchIsReadAgainFromItsFirstRecordThoughTheNextBatchWasReadMeanwhile() throws Exception {
        push(0, 10);
        CompletableFuture<Void> redisAnswers = store.holdNextApply();
        turn();
        push(10, 20);

        redisAnswers.completeExceptionally(new IllegalStateException("Redis is down"));

        assertThatThrownBy(batches::next).hasRootCauseMessage("Redis is down");
        assertThat(consumer.position(PUSH)).as("both batches are read again").isZero();
        assertThat(committed()).isNull();
    }

    @Test
    void aPartitionReadUpToItsEndOffsetIsCaughtUpAsOfWhenTheBrokerWasAskedAndNoLater() throws Exception {
        push(0, 10);
        consumer.updateEndOffsets(Map.of(PUSH, 10L));
        long asked = brokerClock.millis() + 60_000;
        brokerClock.set(Instant.ofEpochMilli(asked));
        turn();
        turn();
        assertThat(watermarks.all().join().get("push/0").value()).isEqualTo(asked);

        // ten more records reached the broker; the consumer has not fetched them
        consumer.updateEndOffsets(Map.of(PUSH, 20L));
        brokerClock.advance(Duration.ofSeconds(1));
        turn();
        turn();

        assertThat(watermarks.all().join().get("push/0").value()).isEqualTo(asked);
    }

    @Test
    void whileTheBrokerDoesNotAnswerNoPartitionIsCaughtUpAnyLater() throws Exception {
        long asked = brokerClock.millis() + 60_000;
        brokerClock.set(Instant.ofEpochMilli(asked));
        turn();
        turn();
        assertThat(watermarks.all().join().get("push/0").value()).isEqualTo(asked);

        // the consumer knows of nothing left to read, but that is only what it last heard
        brokerAnswers = false;
        brokerClock.advance(Duration.ofSeconds(1));
        turn();
        turn();

        assertThat(watermarks.all().join().get("push/0").value()).isEqualTo(asked);
    }

    @Test
    void aFailedBatchDoesNotCountTowardsTheWatermark() throws Exception {
        consumer.updateEndOffsets(Map.of(PUSH, 10L));
        push(0, 10);
        CompletableFuture<Void> redisAnswers = store.holdNextApply();
        turn();
        redisAnswers.completeExceptionally(new IllegalStateException("Redis is down"));
        assertThatThrownBy(batches::next).hasRootCauseMessage("Redis is down");

        // the records wait unread again; the next batch has nothing of the partition to report
        turn();
        turn();

        assertThat(watermarks.all().join()).doesNotContainKey("push/0");
    }

    @Test
    void aBatchInFlightWhenItsPartitionIsRevokedIsFinishedAndCommittedFirst() throws Exception {
        push(0, 10);
        CompletableFuture<Void> redisAnswers = store.holdNextApply();
        turn();
        redisAnswers.complete(null);

        consumer.rebalance(List.of());
        // MockConsumer reports commits only of partitions it has assigned
        consumer.rebalance(List.of(PUSH));

        assertThat(committed()).isEqualTo(10);
        assertThat(watched(0, 10)).isTrue();
    }

    /** The real store, except that the test may hold back its next apply and then let it through or fail it. */
    /** A schedule that asks quickly: a deadline is due. */
    private static ProofSchedule dueNow() {
        ProofSchedule schedule = new ProofSchedule();
        schedule.earliestDue(OptionalLong.of(0));
        return schedule;
    }

    private static final class HeldStore {

        private final TimerStore real;
        private CompletableFuture<Void> held;

        HeldStore(TimerStore real) {
            this.real = real;
        }

        /** @return completing it lets the held apply reach Redis; failing it fails the apply */
        CompletableFuture<Void> holdNextApply() {
            held = new CompletableFuture<>();
            return held;
        }

        /** The store to hand to ingest: every call goes to the real one, an apply through the gate. */
        @SuppressWarnings("unchecked")
        TimerStore store() {
            return (TimerStore) Proxy.newProxyInstance(
                    TimerStore.class.getClassLoader(), new Class<?>[] {TimerStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("apply")) {
                            CompletableFuture<Void> gate = held;
                            held = null;
                            if (gate != null) {
                                return gate.thenCompose(v -> real.apply((Collection<OrderUpdate>) args[0]));
                            }
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    /** One turn of ingest's loop, the probe's thread asking the broker first when due. */
    private void turn() throws Exception {
        probe.askIfDue();
        batches.next();
    }
}
