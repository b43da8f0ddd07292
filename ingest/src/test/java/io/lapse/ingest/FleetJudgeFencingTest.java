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
import io.lapse.ingest.fleet.CohortGauges;
import io.lapse.ingest.fleet.CohortSilenceWatch;
import io.lapse.ingest.fleet.FleetGauges;
import io.lapse.ingest.fleet.FleetSilenceWatch;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.metrics.MetricNames;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.fleet.FleetSilence;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two ingest instances watch the fleet; the one judging freezes (as under SIGSTOP) right before it publishes a
 * silence's start, the other takes over once the lease runs out and publishes it. When the frozen one resumes, its
 * event must not follow: one start per silence.
 */
@Tag("extended")
class FleetJudgeFencingTest {

    private static final Logger log = LoggerFactory.getLogger(FleetJudgeFencingTest.class);
    private static final int PARTITIONS = 3;

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    private final AtomicBoolean pushing = new AtomicBoolean(true);
    private final AtomicBoolean silent = new AtomicBoolean();
    private final AtomicBoolean freezing = new AtomicBoolean();
    private final CountDownLatch frozen = new CountDownLatch(1);
    private final CountDownLatch thawed = new CountDownLatch(1);
    private final List<Thread> threads = new ArrayList<>();
    private RedisConnection redis;

    @AfterEach
    void stop() throws InterruptedException {
        pushing.set(false);
        thawed.countDown();
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        redis.close();
    }

    @Test
    void aJudgeThatFrozeBeforePublishingPublishesNothingOnceAnotherTookOver() throws Exception {
        Namespace run = TestRun.namespace("fleet-fence");
        LapseConfig config = TestRun.config(TestRun.settings(
                run,
                stack.bootstrapServers(),
                stack.redisUri(),
                Map.of(
                        "topics.partitions",
                        Integer.toString(PARTITIONS),
                        "fleet.window",
                        "2s",
                        "fleet.baseline",
                        "15s")));
        KafkaClients clients = new KafkaClients(config.kafka());
        new TopicProvisioner(clients)
                .ensure(Set.of(config.topics().push(), config.topics().fleetEvents()));
        redis = RedisConnection.open(config.redis());
        TimerKeys keys =
                new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        KafkaProducer<byte[], byte[]> producer = clients.producer("fleet-fence-pusher", Map.of());
        BrokerEndOffsets ends =
                new BrokerEndOffsets(clients.admin(), List.of(config.topics().push()), IsolationLevel.READ_UNCOMMITTED);
        String judgeId = config.ingest().groupId() + IngestService.FLEET_JUDGE_SUFFIX;
        SimpleMeterRegistry firstGauges = new SimpleMeterRegistry();
        FleetSilenceWatch first = watch(config, clients, keys, ends, judgeId, firstGauges, () -> {
            if (freezing.get()) {
                frozen.countDown();
                // frozen, as under SIGSTOP, right before the start is published
                awaitUninterruptibly(thawed);
            }
            return CompletableFuture.completedFuture(0L);
        });
        FleetSilenceWatch second = watch(
                config,
                clients,
                keys,
                ends,
                judgeId,
                new SimpleMeterRegistry(),
                () -> CompletableFuture.completedFuture(0L));
        AtomicInteger firstChecks = new AtomicInteger();
        run("fleet-fence-pusher", () -> push(producer, config.topics().push()));
        run("fleet-fence-first", () -> checkEvery(first, config, firstChecks));
        await().atMost(Duration.ofSeconds(30)).until(() -> firstChecks.get() > 0);
        run("fleet-fence-second", () -> checkEvery(second, config, new AtomicInteger()));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> firstGauges.find(MetricNames.FLEET_PUSH_BASELINE).gauge() != null
                        && firstGauges
                                        .get(MetricNames.FLEET_PUSH_BASELINE)
                                        .gauge()
                                        .value()
                                > PARTITIONS * 20 * 0.5);

        freezing.set(true);
        silent.set(true);
        assertThat(frozen.await(30, TimeUnit.SECONDS))
                .as("the judge froze about to publish the start")
                .isTrue();
        List<FleetEvent> seen = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> events = clients.consumer(
                run.name() + "-reader",
                "fleet-fence-reader",
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            TopicPartition partition = new TopicPartition(config.topics().fleetEvents(), 0);
            events.assign(List.of(partition));
            events.seekToBeginning(List.of(partition));
            await().atMost(Duration.ofSeconds(60))
                    .alias("the other instance takes over once the lease runs out, and publishes the start")
                    .until(() -> {
                        read(events, seen);
                        return !seen.isEmpty();
                    });

            int checksBefore = firstChecks.get();
            freezing.set(false);
            thawed.countDown();
            // the thawed judge finishes the check it froze in, and checks again while the fleet stays silent
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                read(events, seen);
                return firstChecks.get() >= checksBefore + 2;
            });
            read(events, seen);
            assertThat(new FleetSilence(redis, keys).current().join()).isPresent();
        }
        assertThat(seen).extracting(FleetEvent::event).containsExactly(FleetEvent.Kind.SILENCE_STARTED);
        pushing.set(false);
        first.close();
        second.close();
        ends.close();
        producer.close();
    }

    private FleetSilenceWatch watch(
            LapseConfig config,
            KafkaClients clients,
            TimerKeys keys,
            BrokerEndOffsets ends,
            String judgeId,
            SimpleMeterRegistry gauges,
            Supplier<CompletableFuture<Long>> watched) {
        return new FleetSilenceWatch(
                config.fleet(),
                config.topics().push(),
                () -> ends.ofTopic(config.topics().push()),
                new FleetSilence(redis, keys),
                watched,
                clients,
                config.topics().fleetEvents(),
                judgeId,
                Clock.systemUTC(),
                new FleetGauges(gauges),
                CohortSilenceWatch.off(config.fleet(), config.topics().push(), new CohortGauges(gauges, () -> 0)));
    }

    /** Checks as the service's loop does, counting the checks that ended, well or not. */
    private void checkEvery(FleetSilenceWatch watch, LapseConfig config, AtomicInteger checks) {
        while (pushing.get()) {
            try {
                try {
                    watch.check();
                } finally {
                    checks.incrementAndGet();
                }
                Thread.sleep(config.fleet().checkInterval().toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // a check that fails is tried again, as the service's loop does
                log.warn("a fleet silence check failed", e);
            }
        }
    }

    private void run(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        threads.add(thread);
        thread.start();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // a freeze does not end early
            }
        }
    }

    private static void read(KafkaConsumer<byte[], byte[]> events, List<FleetEvent> seen) {
        for (ConsumerRecord<byte[], byte[]> record : events.poll(Duration.ofMillis(200))) {
            seen.add(JsonCodec.FLEET_EVENT.decode(record.value()));
        }
    }

    /** 20 pushes a second to each partition until the fleet falls silent. */
    private void push(KafkaProducer<byte[], byte[]> producer, String topic) {
        int n = 0;
        while (pushing.get()) {
            if (!silent.get()) {
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    String orderId = "order-" + partition + "-" + (n % 50);
                    producer.send(new ProducerRecord<>(
                            topic,
                            partition,
                            orderId.getBytes(StandardCharsets.UTF_8),
                            JsonCodec.STATUS_PUSH.encode(
                                    new StatusPush(orderId, "CHARGING", System.currentTimeMillis()))));
                }
            }
            n++;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
