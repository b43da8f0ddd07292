package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.config.TestRun;
import io.lapse.devstack.DevStackExtension;
import io.lapse.event.CohortEvent;
import io.lapse.event.JsonCodec;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.metrics.MetricNames;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.TimerKeys;
import io.lapse.store.fleet.CohortSilences;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One operator's orders go silent while the others' push on, read by two ingest instances that share the push
 * partitions: one COHORT_SILENCE_STARTED naming that operator on the fleet events topic, whatever happens meanwhile
 * (Redis loses the silence and the judge's lease, a new instance joins and the ones that saw the start leave), and one
 * COHORT_SILENCE_ENDED once its orders push again; the whole fleet's silence is never told.
 */
@Tag("slow")
@Tag("extended")
class CohortSilenceTest {

    private static final List<String> OPERATORS = List.of("north", "south", "east");
    private static final int ORDERS_PER_OPERATOR = 20;
    private static final Duration DECIDED_WITHIN = Duration.ofSeconds(40);

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    private final Set<String> quiet = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean pushing = new AtomicBoolean(true);
    private final List<IngestService> running = new ArrayList<>();
    private LapseConfig config;
    private RedisConnection redis;
    private KafkaClients clients;
    private KafkaProducer<byte[], byte[]> producer;
    private Thread pusher;

    @AfterEach
    void stop() throws InterruptedException {
        pushing.set(false);
        if (pusher != null) {
            pusher.join();
        }
        running.forEach(IngestService::close);
        if (producer != null) {
            producer.close();
        }
        redis.close();
    }

    @Test
    void oneOperatorGoingSilentIsOneStartAndOneEndWhateverTheInstancesAndRedisDoMeanwhile() {
        Namespace run = TestRun.namespace("cohort-test");
        config = TestRun.config(TestRun.settings(
                run,
                stack.bootstrapServers(),
                stack.redisUri(),
                Map.of(
                        "topics.partitions", "3",
                        "fleet.window", "2s",
                        "fleet.baseline", "15s",
                        "fleet.cohort-field", "operatorId",
                        "fleet.cohort-min-orders", "10")));
        redis = RedisConnection.open(config.redis());
        clients = new KafkaClients(config.kafka());
        MeterRegistry first = new SimpleMeterRegistry();
        start(first);
        start(new SimpleMeterRegistry());
        producer = clients.producer("cohort-test-pusher", Map.of());
        pusher = new Thread(this::pushEveryOrderFourTimesASecondButTheQuietOperators, "cohort-test-pusher");
        pusher.start();
        List<CohortEvent> seen = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> events = clients.consumer(
                run.name() + "-reader",
                "cohort-test-reader",
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            TopicPartition partition = new TopicPartition(config.topics().fleetEvents(), 0);
            events.assign(List.of(partition));
            events.seekToBeginning(List.of(partition));
            await().atMost(DECIDED_WITHIN)
                    .alias("every operator is counted long enough to be judged")
                    .until(() -> first.find(MetricNames.FLEET_COHORTS_JUDGED).gauge() != null
                            && first.get(MetricNames.FLEET_COHORTS_JUDGED)
                                            .gauge()
                                            .value()
                                    == 3);

            quiet.add("south");
            CohortEvent started = awaitEvent(events, seen, CohortEvent.Kind.COHORT_SILENCE_STARTED);
            assertThat(started.cohort()).isEqualTo("south");
            assertThat(started.cohortOf()).isEqualTo("operatorId");
            assertThat(started.topic()).isEqualTo(config.topics().push());
            assertThat(started.orders())
                    .as("about the operator's 20 orders, counted from its pushes")
                    .isBetween(12L, 30L);
            assertThat(started.silentOrders()).isBetween(10L, 30L);
            assertThat(started.since()).isLessThanOrEqualTo(started.at());

            // what a FLUSHALL does to the silence's copy and to the judge's lease (other classes share this Redis)
            redis.async()
                    .del(keys().cohortSilences(), keys().fleetWatcher())
                    .toCompletableFuture()
                    .join();
            await().atMost(DECIDED_WITHIN)
                    .alias("Redis shows the silence again")
                    .until(() ->
                            new CohortSilences(redis, keys()).current().join().containsKey("south"));
            // a new instance joins with no history of its own, and the two that saw the silence start leave: the
            // new one judges, from what the topic and Redis hold
            IngestService joining = start(new SimpleMeterRegistry());
            List<IngestService> leaving =
                    running.stream().filter(i -> i != joining).toList();
            leaving.forEach(IngestService::close);
            running.removeAll(leaving);

            quiet.clear();
            CohortEvent ended = awaitEvent(events, seen, CohortEvent.Kind.COHORT_SILENCE_ENDED);
            assertThat(ended.cohort()).isEqualTo("south");
            assertThat(ended.since()).isEqualTo(started.since());
            await().atMost(DECIDED_WITHIN)
                    .alias("Redis forgets the silence")
                    .until(() ->
                            new CohortSilences(redis, keys()).current().join().isEmpty());
            read(events, seen);
        }
        assertThat(seen)
                .as("one start and one end, and no fleet silence: the other operators pushed on")
                .extracting(CohortEvent::event, CohortEvent::cohort)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(CohortEvent.Kind.COHORT_SILENCE_STARTED, "south"),
                        org.assertj.core.groups.Tuple.tuple(CohortEvent.Kind.COHORT_SILENCE_ENDED, "south"));
    }

    private IngestService start(MeterRegistry registry) {
        IngestService ingest = IngestService.build(ServiceContext.of(
                config, clients, new TopicProvisioner(clients).prepare(config), redis, registry, Clock.systemUTC()));
        ingest.start();
        running.add(ingest);
        return ingest;
    }

    private TimerKeys keys() {
        return new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
    }

    private static CohortEvent awaitEvent(
            KafkaConsumer<byte[], byte[]> events, List<CohortEvent> seen, CohortEvent.Kind kind) {
        await().atMost(DECIDED_WITHIN).until(() -> {
            read(events, seen);
            return seen.stream().anyMatch(e -> e.event() == kind);
        });
        return seen.stream().filter(e -> e.event() == kind).findFirst().orElseThrow();
    }

    /** Every record on the topic must be a cohort's event: a fleet silence's would fail to read as one. */
    private static void read(KafkaConsumer<byte[], byte[]> events, List<CohortEvent> seen) {
        for (ConsumerRecord<byte[], byte[]> record : events.poll(Duration.ofMillis(200))) {
            seen.add(JsonCodec.COHORT_EVENT.decode(record.value()));
        }
    }

    /** Each order pushes every 250 ms, its operator named in a field of the push, as a non-Java producer writes it. */
    private void pushEveryOrderFourTimesASecondButTheQuietOperators() {
        while (pushing.get()) {
            for (String operator : OPERATORS) {
                if (quiet.contains(operator)) {
                    continue;
                }
                for (int i = 0; i < ORDERS_PER_OPERATOR; i++) {
                    String orderId = operator + "-" + i;
                    String push = "{\"orderId\":\"" + orderId + "\",\"operatorId\":\"" + operator
                            + "\",\"status\":\"CHARGING\",\"ts\":" + System.currentTimeMillis() + "}";
                    producer.send(new ProducerRecord<>(
                            config.topics().push(),
                            orderId.getBytes(StandardCharsets.UTF_8),
                            push.getBytes(StandardCharsets.UTF_8)));
                }
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
