package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.config.TestRun;
import io.lapse.devstack.DevStackExtension;
import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.metrics.MetricNames;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.TimerKeys;
import io.lapse.store.fleet.FleetSilence;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Producers that stop writing to push partitions at once are one fleet silence: one event when it starts, one when it ends. */
@Tag("slow")
class FleetSilenceTest {

    private static final int PARTITIONS = 3;
    private static final Duration DETECTED_WITHIN = Duration.ofSeconds(20);
    /** How long the fleet's pushes may take to build a baseline on a loaded machine: the wait is not the feature. */
    private static final Duration BASELINE_WITHIN = Duration.ofSeconds(60);

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    private final Set<Integer> quiet = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean pushing = new AtomicBoolean(true);
    /** Set when only a third of the orders push: the fleet is smaller than it was. */
    private final AtomicBoolean shrunk = new AtomicBoolean();

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private LapseConfig config;
    private RedisConnection redis;
    private KafkaClients clients;
    private KafkaProducer<byte[], byte[]> producer;
    private KafkaConsumer<byte[], byte[]> events;
    private Thread pusher;
    private IngestService ingest;

    @BeforeEach
    void startIngestWhileEveryPartitionIsPushedTo() {
        Namespace run = TestRun.namespace("fleet-test");
        config = TestRun.config(TestRun.settings(
                run,
                stack.bootstrapServers(),
                stack.redisUri(),
                Map.of(
                        "topics.partitions", Integer.toString(PARTITIONS),
                        "fleet.window", "2s",
                        "fleet.baseline", "15s")));
        redis = RedisConnection.open(config.redis());
        clients = new KafkaClients(config.kafka());
        ingest = IngestService.build(ServiceContext.of(
                config, clients, new TopicProvisioner(clients).prepare(config), redis, registry, Clock.systemUTC()));
        producer = clients.producer("fleet-test-pusher", Map.of());
        pusher = new Thread(this::pushTwentyPerSecondToEachPartitionButTheQuietOnes, "fleet-test-pusher");
        pusher.start();
        // aborted events of a fenced judge are not events: readers read committed ones
        events = clients.consumer(
                run.name() + "-reader",
                "fleet-test-reader",
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
        TopicPartition eventPartition = new TopicPartition(config.topics().fleetEvents(), 0);
        events.assign(List.of(eventPartition));
        events.seekToBeginning(List.of(eventPartition));
        ingest.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        pushing.set(false);
        pusher.join();
        ingest.close();
        producer.close();
        events.close();
        redis.close();
    }

    @Test
    void theWholeFleetFallingSilentIsOneEventWhenItStartsAndOneWhenItEnds() {
        List<FleetEvent> seen = new ArrayList<>();
        awaitBaseline();

        quiet.addAll(List.of(0, 1, 2));
        FleetEvent started = awaitEvent(seen, FleetEvent.Kind.SILENCE_STARTED);
        assertThat(started.partitionNumbers()).containsExactly(0, 1, 2);
        assertThat(started.silentShare())
                .as("judged as soon as half the pushes are missing")
                .isGreaterThan(0.5);
        assertThat(started.partitions())
                .allSatisfy(p -> assertThat(p.baselinePushesPerSecond()).isGreaterThan(5));
        // the gauge shows what the watch recorded, a moment after it published
        await().atMost(DETECTED_WITHIN)
                .until(() -> registry.get(MetricNames.FLEET_SILENCE).gauge().value() == 1);
        assertThat(new FleetSilence(redis, keys()).current().join()).isPresent();

        quiet.clear();
        FleetEvent ended = awaitEvent(seen, FleetEvent.Kind.SILENCE_ENDED);
        assertThat(ended.since()).isEqualTo(started.since());
        assertThat(ended.partitionNumbers()).containsExactly(0, 1, 2);
        assertThat(seen)
                .as("one event each way, however many checks saw the silence")
                .hasSize(2);
        await().atMost(DETECTED_WITHIN)
                .until(() -> registry.get(MetricNames.FLEET_SILENCE).gauge().value() == 0);
        assertThat(new FleetSilence(redis, keys()).current().join()).isEmpty();
    }

    @Test
    void redisLosingTheSilenceWhileItLastsStartsNoSecondOneAndAFleetBackSmallerEndsIt() {
        List<FleetEvent> seen = new ArrayList<>();
        awaitBaseline();
        quiet.addAll(List.of(0, 1, 2));
        awaitEvent(seen, FleetEvent.Kind.SILENCE_STARTED);

        // what a FLUSHALL does to the silence's keys (other test classes share this Redis)
        redis.async()
                .del(keys().fleetSilence(), keys().fleetWatcher())
                .toCompletableFuture()
                .join();
        long flushedAt = System.currentTimeMillis();
        await().atMost(DETECTED_WITHIN).pollDelay(Duration.ofMillis(200)).until(() -> {
            readEvents(seen);
            return System.currentTimeMillis() - flushedAt
                            > 3 * config.fleet().window().toMillis()
                    && new FleetSilence(redis, keys()).current().join().isPresent();
        });
        assertThat(seen).as("the silence goes on, and Redis shows it again").hasSize(1);

        // two thirds of the sessions ended during the silence: the fleet comes back at a third of its rate
        shrunk.set(true);
        quiet.clear();
        awaitEvent(seen, FleetEvent.Kind.SILENCE_ENDED);
        assertThat(seen)
                .extracting(FleetEvent::event)
                .containsExactly(FleetEvent.Kind.SILENCE_STARTED, FleetEvent.Kind.SILENCE_ENDED);
    }

    @Test
    void oneSilentPartitionIsASilenceOfThatPartitionOnly() {
        List<FleetEvent> seen = new ArrayList<>();
        awaitBaseline();

        quiet.add(1);
        FleetEvent started = awaitEvent(seen, FleetEvent.Kind.SILENCE_STARTED);

        assertThat(started.partitionNumbers()).containsExactly(1);
        assertThat(started.silentShare())
                .as("at most a third of the pushes are missing")
                .isBetween(0.15, 0.34);
    }

    private TimerKeys keys() {
        return new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
    }

    private void awaitBaseline() {
        await().atMost(BASELINE_WITHIN)
                .until(() -> registry.find(MetricNames.FLEET_PUSH_BASELINE).gauge() != null
                        && registry.get(MetricNames.FLEET_PUSH_BASELINE).gauge().value() > 3 * 20 * 0.8);
    }

    private FleetEvent awaitEvent(List<FleetEvent> seen, FleetEvent.Kind kind) {
        await().atMost(DETECTED_WITHIN).until(() -> {
            readEvents(seen);
            return seen.stream().anyMatch(e -> e.event() == kind);
        });
        return seen.stream().filter(e -> e.event() == kind).findFirst().orElseThrow();
    }

    private void readEvents(List<FleetEvent> seen) {
        for (ConsumerRecord<byte[], byte[]> record : events.poll(Duration.ofMillis(200))) {
            assertThat(new String(record.key(), StandardCharsets.UTF_8))
                    .isEqualTo(config.topics().push());
            seen.add(JsonCodec.FLEET_EVENT.decode(record.value()));
        }
    }

    private void pushTwentyPerSecondToEachPartitionButTheQuietOnes() {
        int n = 0;
        while (pushing.get()) {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                if (quiet.contains(partition) || (shrunk.get() && n % 3 != 0)) {
                    continue;
                }
                String orderId = "order-" + partition + "-" + (n % 50);
                producer.send(new ProducerRecord<>(
                        config.topics().push(),
                        partition,
                        orderId.getBytes(StandardCharsets.UTF_8),
                        JsonCodec.STATUS_PUSH.encode(new StatusPush(orderId, "CHARGING", System.currentTimeMillis()))));
            }
            n++;
            try {
                Thread.sleep(50); // the load's pace: 20 pushes per second to each partition
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
