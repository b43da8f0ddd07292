package io.lapse.puller;

import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.config.TestRun;
import io.lapse.devstack.DevStackExtension;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.Watermarks;
import io.lapse.timer.TimerService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The puller on the devstack with its own topics, groups and Redis prefix against the simulated upstream, and, when
 * asked, ingest and the timer beside it as the app wires them; recorders of the expired, pulled and dead-letter topics
 * for the test's eyes.
 */
final class Pipeline implements AutoCloseable {

    /** The services besides the puller. */
    enum With {
        NOTHING_ELSE,
        INGEST,
        INGEST_AND_TIMER,
        /** Not even the puller: the test starts it, in this process or another. */
        NO_PULLER
    }

    /** Every setting of this run, as key=value, for a puller in another process. */
    final Map<String, String> settings;

    final LapseConfig config;
    final UpstreamSimulator simulator;
    final TimerStore store;
    final TopicRecorder expired;
    final TopicRecorder pulled;
    final TopicRecorder deadLetters;
    private final RedisConnection redis;
    private final List<Service> others = new ArrayList<>();
    private MeterRegistry pullerRegistry;
    private PullerService puller;

    /**
     * Starts the simulated upstream and the services on a fresh run's names.
     *
     * @param basePath appended to the simulator's URL in upstream.base-url
     */
    static Pipeline start(
            DevStackExtension stack, Duration pushInterval, Map<String, String> given, With with, String basePath) {
        Map<String, String> overrides = new HashMap<>(Map.of("timer.shards", "4"));
        overrides.putAll(given);
        Map<String, String> settings = new HashMap<>(
                TestRun.settings(TestRun.namespace("pipeline"), stack.bootstrapServers(), stack.redisUri(), overrides));
        LapseConfig config = TestRun.config(settings);
        UpstreamSimulator simulator = new UpstreamSimulator(
                SimulatorSettings.manual(pushInterval),
                new KafkaClients(config.kafka()),
                config.topics().push(),
                Clock.systemUTC());
        simulator.start();
        settings.put("upstream.base-url", simulator.baseUrl() + basePath);
        return new Pipeline(stack, settings, simulator, with);
    }

    private Pipeline(DevStackExtension stack, Map<String, String> settings, UpstreamSimulator simulator, With with) {
        this.settings = Map.copyOf(settings);
        this.simulator = simulator;
        this.config = LapseConfig.load(null, Map.of()).with(settings);
        this.redis = RedisConnection.open(config.redis());
        this.store = TimerStore.of(
                redis, new TimerKeys(config.redis().keyPrefix(), config.timer().shards()), config.timer());
        new RedisEpochs(redis, store.keys()).stamp("puller-test").join(); // no compensator to vouch for Redis
        KafkaClients clients = new KafkaClients(config.kafka());
        Watermarks watermarks = Watermarks.of(redis, store.keys(), config);
        if (with == With.INGEST || with == With.INGEST_AND_TIMER) {
            others.add(IngestService.build(context(clients, watermarks, new SimpleMeterRegistry())));
        }
        if (with == With.INGEST_AND_TIMER) {
            others.add(TimerService.build(context(clients, watermarks, new SimpleMeterRegistry())));
        }
        others.forEach(Service::start);
        if (with != With.NO_PULLER) {
            startPuller();
        }
        others.stream()
                .filter(s -> s instanceof TimerService)
                .map(TimerService.class::cast)
                .forEach(timer -> await().atMost(Duration.ofSeconds(60))
                        .until(() ->
                                timer.ownedShards().size() == config.timer().shards()));
        this.expired =
                TopicRecorder.start(stack.bootstrapServers(), config.topics().expired());
        this.pulled =
                TopicRecorder.start(stack.bootstrapServers(), config.topics().pulled());
        this.deadLetters =
                TopicRecorder.start(stack.bootstrapServers(), config.topics().dlq());
    }

    private ServiceContext context(KafkaClients clients, Watermarks watermarks, MeterRegistry registry) {
        return new ServiceContext(
                config,
                clients,
                new TopicProvisioner(clients).prepare(config),
                redis,
                store,
                watermarks,
                new RedisEpochs(redis, store.keys()),
                registry,
                Clock.systemUTC());
    }

    void startPuller() {
        pullerRegistry = new SimpleMeterRegistry();
        puller = PullerService.build(
                context(new KafkaClients(config.kafka()), Watermarks.of(redis, store.keys(), config), pullerRegistry));
        puller.start();
    }

    PullerService puller() {
        return puller;
    }

    MeterRegistry pullerMetrics() {
        return pullerRegistry;
    }

    List<PullResult> results() {
        return pulled.values(JsonCodec.PULL_RESULT::decode);
    }

    List<TimerExpired> expiries() {
        return expired.values(JsonCodec.TIMER_EXPIRED::decode);
    }

    /** Writes these records, keyed by their orderId, as an outside producer would. */
    void send(String topic, Map<String, byte[]> byKey) {
        // one request in flight: Kafka before 4.5 may drop the first batch sent to a new partition (KAFKA-15591)
        try (KafkaProducer<byte[], byte[]> producer = new KafkaClients(config.kafka())
                .producer("test", Map.of(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1))) {
            byKey.forEach((key, value) ->
                    producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value)));
        }
    }

    @Override
    public void close() {
        if (puller != null) {
            puller.close();
        }
        for (int i = others.size() - 1; i >= 0; i--) {
            others.get(i).close();
        }
        expired.close();
        pulled.close();
        deadLetters.close();
        redis.close();
        simulator.close();
    }
}
