package io.lapse.compensator;

import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.config.TestRun;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.puller.PullerService;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.Watermarks;
import io.lapse.timer.TimerService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The four services on one isolated set of topics, consumer groups and Redis keys, against a real Kafka and Redis,
 * with recorders of the expired and pulled topics. Everything it starts closes with it, newest first.
 */
final class RunningLapse implements AutoCloseable {

    private static final AtomicInteger RUN = new AtomicInteger();

    /** Every setting of this run, e.g. for a compensator in another process. */
    final Map<String, String> settings;

    final LapseConfig config;
    final KafkaClients clients;
    final RedisConnection redis;
    final TimerStore store;
    final RedisEpochs epochs;
    private SimpleMeterRegistry compensatorMetrics = new SimpleMeterRegistry();
    private final Watermarks watermarks;
    private final List<AutoCloseable> started = new ArrayList<>();
    private TopicRecorder expired;
    private TopicRecorder pulled;
    private CompensatorService compensator;

    /** @param overrides settings on top of this run's own names, e.g. a shorter ttl */
    RunningLapse(String bootstrapServers, String redisUri, Map<String, String> overrides) {
        this(bootstrapServers, redisUri, "run" + RUN.incrementAndGet() + "-" + System.nanoTime() % 100_000, overrides);
    }

    /** @param name of the run's topics, consumer groups, application id and Redis keys */
    RunningLapse(String bootstrapServers, String redisUri, String name, Map<String, String> overrides) {
        this.settings = TestRun.settings(new Namespace(name), bootstrapServers, redisUri, overrides);
        config = TestRun.config(settings);
        clients = new KafkaClients(config.kafka());
        redis = RedisConnection.open(config.redis());
        TimerKeys keys =
                new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        store = TimerStore.of(redis, keys, config.timer());
        epochs = new RedisEpochs(redis, keys);
        watermarks = Watermarks.of(redis, keys, config);
    }

    private ServiceContext context(LapseConfig config, MeterRegistry registry) {
        return new ServiceContext(
                config,
                clients,
                new TopicProvisioner(clients).prepare(config),
                redis,
                store,
                watermarks,
                epochs,
                registry,
                Clock.systemUTC());
    }

    /** Creates the run's topics now, as a service's start would, for a test that changes them before any starts. */
    RunningLapse withTopics() {
        new TopicProvisioner(clients).prepare(config);
        return this;
    }

    KafkaProducer<byte[], byte[]> producer() {
        return started(clients.producer("test-producer", Map.of()));
    }

    /** Ingest, timer and puller. */
    RunningLapse startPipeline() {
        ServiceContext context = context(config, new SimpleMeterRegistry());
        started(IngestService.build(context)).start();
        started(TimerService.build(context)).start();
        started(PullerService.build(context)).start();
        return this;
    }

    /** Starts a compensator keeping its state under {@code stateDir}, with metrics of its own. */
    CompensatorService startCompensator(Path stateDir) {
        compensatorMetrics = new SimpleMeterRegistry();
        compensator = started(CompensatorService.build(
                context(config.with(Map.of("compensator.state-dir", stateDir.toString())), compensatorMetrics)));
        compensator.start();
        return compensator;
    }

    CompensatorService compensator() {
        return compensator;
    }

    /** The metrics of the compensator started last. */
    SimpleMeterRegistry compensatorMetrics() {
        return compensatorMetrics;
    }

    /** Whether every shard of this run's key layout has its epoch: the compensator has rebuilt them all. */
    boolean hasEveryEpoch() {
        return epochs.current().join().values().stream().allMatch(epoch -> epoch != null);
    }

    /** Whether Redis watches every one of the orders. */
    boolean watchesAll(List<String> orders) {
        return store.inspect(orders).join().values().stream().allMatch(OrderView::isWatched);
    }

    /** How far ingest has applied every partition, in event time; 0 before it reported. */
    long watermark() {
        return watermarks.low().join().orElse(0);
    }

    List<TimerExpired> expiries() {
        if (expired == null) {
            expired = started(TopicRecorder.start(
                    config.kafka().bootstrapServers(), config.topics().expired()));
        }
        return expired.values(JsonCodec.TIMER_EXPIRED::decode);
    }

    List<PullResult> pulls() {
        if (pulled == null) {
            pulled = started(TopicRecorder.start(
                    config.kafka().bootstrapServers(), config.topics().pulled()));
        }
        return pulled.values(JsonCodec.PULL_RESULT::decode);
    }

    private <T extends AutoCloseable> T started(T resource) {
        started.add(resource);
        return resource;
    }

    @Override
    public void close() throws Exception {
        Collections.reverse(started);
        for (AutoCloseable resource : started) {
            resource.close();
        }
        redis.close();
    }
}
