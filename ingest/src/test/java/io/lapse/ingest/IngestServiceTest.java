package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.config.TestRun;
import io.lapse.devstack.DevStackExtension;
import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.kafka.CopyHeader;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.Watermarks;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("slow")
class IngestServiceTest {

    private static final long TTL = 90_000;

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    private LapseConfig config;
    private RedisConnection redis;
    private TimerStore store;
    private Watermarks watermarks;
    private KafkaProducer<byte[], byte[]> producer;
    private IngestService ingest;

    @BeforeEach
    void startIngest() {
        config = TestRun.config(TestRun.settings(
                TestRun.namespace("ingest-test"), stack.bootstrapServers(), stack.redisUri(), Map.of()));
        redis = RedisConnection.open(config.redis());
        TimerKeys keys =
                new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        store = TimerStore.of(redis, keys, config.timer());
        watermarks = Watermarks.of(redis, keys, config);
        KafkaClients clients = new KafkaClients(config.kafka());
        producer = clients.producer("test-producer", Map.of());
        ingest = IngestService.build(context(clients));
        ingest.start();
    }

    private ServiceContext context(KafkaClients clients) {
        return new ServiceContext(
                config,
                clients,
                new TopicProvisioner(clients).prepare(config),
                redis,
                store,
                watermarks,
                new RedisEpochs(redis, store.keys()),
                new SimpleMeterRegistry(),
                Clock.systemUTC());
    }

    @AfterEach
    void stopIngest() {
        ingest.close();
        producer.close();
        redis.close();
    }

    private void send(String topic, String key, String value) {
        producer.send(new ProducerRecord<>(
                topic,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8)));
        producer.flush();
    }

    private void push(String orderId, String status, long ts) {
        send(
                config.topics().push(),
                orderId,
                new String(JsonCodec.STATUS_PUSH.encode(new StatusPush(orderId, status, ts)), StandardCharsets.UTF_8));
    }

    private OrderView view(String orderId) {
        return store.inspect(List.of(orderId)).join().get(orderId);
    }

    @Test
    void everyOrdersNewestPushArmsItsDeadline() {
        long ts = System.currentTimeMillis();
        for (int i = 0; i < 50; i++) {
            push("order-" + i, "CHARGING", ts);
            push("order-" + i, "CHARGING", ts + 1_000);
        }

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (int i = 0; i < 50; i++) {
                assertThat(view("order-" + i).dueAt()).hasValue(ts + 1_000 + TTL);
            }
        });
    }

    @Test
    void aTerminalPushEndsTheWatch() {
        long ts = System.currentTimeMillis();
        push("o1", "CHARGING", ts);
        push("o1", "FINISHED", ts + 1);

        await().atMost(Duration.ofSeconds(20)).until(() -> view("o1").phase() == OrderView.Phase.ENDED);
    }

    @Test
    void aPoisonRecordIsDeadLetteredAndTheRecordsBehindItAreStillApplied() {
        send(config.topics().push(), "o1", "{not json");
        push("o2", "CHARGING", System.currentTimeMillis());

        await().atMost(Duration.ofSeconds(20)).until(() -> view("o2").isWatched());
        List<DeadLetter> letters = readAll(config.topics().dlq(), 1);
        assertThat(letters).singleElement().satisfies(letter -> {
            assertThat(letter.reason()).startsWith("not valid JSON");
            assertThat(letter.sourceTopic()).isEqualTo(config.topics().push());
            assertThat(letter.key()).isEqualTo("o1");
            assertThat(new String(letter.originalValue(), StandardCharsets.UTF_8))
                    .isEqualTo("{not json");
        });
    }

    @Test
    void everyFullyReadPartitionReportsAWatermarkThatFollowsTheClock() {
        long before = System.currentTimeMillis();
        long slack = config.timer().watermarkSlack().toMillis();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(watermarks.all().join())
                    .containsKeys(
                            config.topics().push() + "/*",
                            config.topics().pulled() + "/*",
                            config.topics().push() + "/2",
                            config.topics().pulled() + "/2");
            assertThat(watermarks.low().join().orElse(Long.MIN_VALUE) + slack).isGreaterThan(before);
        });
    }

    @Test
    void aRedrivenCopyOfAnOldPushDoesNotHoldTheWatermarkBack() {
        long slack = config.timer().watermarkSlack().toMillis();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> watermarks.low().join().isPresent());
        // lapse dlq redrive publishes the original's bytes and timestamp, a minute old, with the copy header
        long original = System.currentTimeMillis() - 60_000;
        ProducerRecord<byte[], byte[]> copy = new ProducerRecord<>(
                config.topics().push(),
                0,
                original,
                "redriven".getBytes(StandardCharsets.UTF_8),
                JsonCodec.STATUS_PUSH.encode(new StatusPush("redriven", "CHARGING", original)));
        CopyHeader.put(copy.headers(), config.topics().push() + "/0@42");
        producer.send(copy);
        producer.flush();
        await().atMost(Duration.ofSeconds(20)).until(() -> view("redriven").isWatched());

        long applied = System.currentTimeMillis();
        // held back by the copy's age, the watermark would trail the clock by most of a minute, for a minute
        await().atMost(Duration.ofSeconds(10))
                .until(() -> watermarks.low().join().orElse(Long.MIN_VALUE) + slack > applied);
    }

    @Test
    void pushesThatArriveWhileRedisIsDownAreAppliedOnceItIsBack() {
        List<String> orders = new ArrayList<>();
        stack.redis().stop();
        try {
            // rounds apart, so that they arrive in several polls: a failed batch and the ones behind it
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 40; i++) {
                    String id = "during-outage-" + round + "-" + i;
                    orders.add(id);
                    push(id, "CHARGING", System.currentTimeMillis());
                }
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> !ingest.isReady());
        } finally {
            stack.redis().restart();
        }

        await().atMost(Duration.ofSeconds(30))
                .until(() -> store.inspect(orders).join().values().stream().allMatch(OrderView::isWatched));
        await().atMost(Duration.ofSeconds(10)).until(ingest::isReady);
    }

    @Test
    void twoInstancesOnOneHostShareThePartitionsAndTheSurvivorTakesThemAllWhenOneStops() throws Exception {
        KafkaClients clients = new KafkaClients(config.kafka());
        try (IngestService second = IngestService.build(context(clients));
                Admin admin = clients.admin()) {
            second.start();
            // the group exists once its first member has joined: until then the broker does not know it
            await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(ExecutionException.class)
                    .untilAsserted(() -> {
                        List<MemberDescription> members = members(admin);
                        assertThat(members)
                                .hasSize(2)
                                .allSatisfy(m -> assertThat(m.assignment().topicPartitions())
                                        .isNotEmpty());
                        assertThat(members)
                                .extracting(m -> m.groupInstanceId().orElseThrow())
                                .doesNotHaveDuplicates();
                    });

            ingest.close();

            // a clean stop leaves the group at once instead of holding its partitions for the 10 s session timeout
            await().atMost(Duration.ofSeconds(8))
                    .untilAsserted(() -> assertThat(members(admin))
                            .singleElement()
                            .satisfies(m ->
                                    assertThat(m.assignment().topicPartitions()).hasSize(6)));
        }
    }

    private List<MemberDescription> members(Admin admin) throws Exception {
        return List.copyOf(admin.describeConsumerGroups(List.of(config.ingest().groupId()))
                .all()
                .get()
                .get(config.ingest().groupId())
                .members());
    }

    private List<DeadLetter> readAll(String topic, int expected) {
        KafkaClients clients = new KafkaClients(config.kafka());
        try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer("reader-" + topic, "reader", Map.of())) {
            consumer.subscribe(List.of(topic));
            List<DeadLetter> letters = new ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    letters.add(JsonCodec.DEAD_LETTER.decode(r.value()));
                }
                return letters.size() >= expected;
            });
            return letters;
        }
    }
}
