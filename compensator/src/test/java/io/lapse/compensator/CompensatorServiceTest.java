package io.lapse.compensator;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.devstack.DevStackExtension;
import io.lapse.devstack.Poison;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.KafkaClients;
import io.lapse.store.OrderView.Phase;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerStore;
import io.lapse.store.TimerKeys;
import io.lapse.store.Watermarks;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The compensator against a real Kafka and Redis, next to a real ingest: once ingest armed some orders, Redis loses
 * everything, and no further status arrives, so only the compensator can bring the timers back. Every kind of poison
 * lies ahead of the statuses, and stops nothing.
 */
class CompensatorServiceTest {

    private static final List<String> ACTIVE = List.of("active-1", "active-2", "active-3");
    private static final String FINISHED = "finished-1";
    private static final Duration SCAN = Duration.ofSeconds(1);
    private static final int PUSH_PARTITIONS = 3;

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    @TempDir
    Path stateDir;



    @Test
    void reArmsTheActiveOrdersRedisLostAndLeavesFinishedOnesAlone() {
        LapseConfig config = LapseConfig.load(null, Map.of()).with(Map.of(
                "kafka.bootstrap.servers", stack.bootstrapServers(), "redis.uri", stack.redisUri(),
                "compensator.scan-interval", SCAN.toMillis() + "ms", "compensator.state-dir", stateDir.toString(),
                "management.port", "0"));
        TopicNames topics = config.topics();
        // different partition counts, so an order's push and pull land on unrelated partitions
        stack.kafka().createTopic(topics.push(), PUSH_PARTITIONS);
        stack.kafka().createTopic(topics.pulled(), 1);
        KafkaClients clients = new KafkaClients(config.kafka());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TimerKeys keys = new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        try (RedisConnection redis = RedisConnection.open(config.redis())) {
            TimerStore store = TimerStore.of(redis, keys, config.timer());
            Watermarks watermarks = Watermarks.of(redis, keys, config);
            try (IngestService ingest = new IngestService(config, clients, store, watermarks, registry, Clock.systemUTC());
                 CompensatorService compensator = new CompensatorService(config, clients, store, watermarks, registry)) {
                ingest.start();
                compensator.start();

                produceStatuses(clients, topics);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    assertThat(phases(store)).containsAllEntriesOf(Map.of(ACTIVE.get(0), Phase.ARMED,
                            ACTIVE.get(1), Phase.ARMED, ACTIVE.get(2), Phase.ARMED, FINISHED, Phase.ENDED));
                    assertThat(compensator.isReady()).isTrue();
                });

                redis.async().flushall().toCompletableFuture().join();

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(phases(store))
                        .containsAllEntriesOf(Map.of(ACTIVE.get(0), Phase.RECOVERED, ACTIVE.get(1), Phase.RECOVERED,
                                ACTIVE.get(2), Phase.RECOVERED)));
                assertThat(registry.counter("lapse.compensator.recovered").count()).isEqualTo(ACTIVE.size());
                // every partition's scan runs every second: over three of them, the finished order must stay unknown
                await().during(SCAN.multipliedBy(3)).atMost(SCAN.multipliedBy(6)).untilAsserted(() ->
                        assertThat(phases(store)).containsEntry(FINISHED, Phase.UNKNOWN));
                assertThat(registry.get("lapse.compensator.orders").gauge().value()).isPositive();

                compensator.close(); // and once more by try-with-resources, which must do nothing
                assertThat(compensator.isReady()).isFalse();
            }
        }
    }

    private static void produceStatuses(KafkaClients clients, TopicNames topics) {
        long now = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> producer = clients.producer("compensator-test", Map.of())) {
            // ahead of the statuses in every partition: a record that stopped the stream thread would hold them back
            for (Poison poison : Poison.values()) {
                for (int partition = 0; partition < PUSH_PARTITIONS; partition++) {
                    producer.send(new ProducerRecord<>(topics.push(), partition, poison.key("poison"),
                            poison.value("poison")));
                }
                producer.send(new ProducerRecord<>(topics.pulled(), 0, poison.key("poison"), poison.value("poison")));
            }
            for (int i = 0; i < ACTIVE.size(); i++) {
                String orderId = ACTIVE.get(i);
                // one order without a key: the compensator must find its orderId in the value
                producer.send(record(topics.push(), i == 1 ? null : orderId, new StatusPush(orderId, "CHARGING", now)));
            }
            producer.send(record(topics.push(), FINISHED, new StatusPush(FINISHED, "CHARGING", now - 1_000)));
            producer.send(record(topics.push(), FINISHED, new StatusPush(FINISHED, "FINISHED", now)));
            producer.flush();
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, StatusPush push) {
        return new ProducerRecord<>(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                JsonCodec.STATUS_PUSH.encode(push));
    }

    private static Map<String, Phase> phases(TimerStore store) {
        List<String> orders = new ArrayList<>(ACTIVE);
        orders.add(FINISHED);
        Map<String, Phase> phases = new HashMap<>();
        store.inspect(orders).join().forEach((id, view) -> phases.put(id, view.phase()));
        return phases;
    }
}
