package io.lapse.operations;

import io.lapse.compensator.CompensatorService;
import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.LapseConfig;
import io.lapse.config.ManagementSettings;
import io.lapse.config.TestRun;
import io.lapse.devstack.DevStack;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.operations.cli.OnCallEnvironment;
import io.lapse.puller.PullerService;
import io.lapse.runtime.management.Health;
import io.lapse.runtime.management.ManagementServer;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.Watermarks;
import io.lapse.timer.TimerService;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One test class's Lapse on the shared devstack: its own topics, consumer groups and Redis keys, timer.ttl 2 s, the
 * services it starts, a producer, and the on-call commands run against it with the settings in LAPSE_* variables.
 */
public final class OnCallRig implements AutoCloseable {

    public final LapseConfig config;
    final Map<String, String> settings;
    public final KafkaClients clients;
    public final RedisConnection redis;
    public final TimerKeys keys;
    public final TimerStore store;
    public final Watermarks watermarks;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private ManagementServer management;

    /** @param overrides settings over the rig's own */
    OnCallRig(DevStack stack, Map<String, String> overrides) {
        Map<String, String> rigs = new HashMap<>(
                Map.of("timer.shards", "4", "timer.ttl", "2s", "management.port", String.valueOf(freePort())));
        rigs.putAll(overrides);
        this.settings = TestRun.settings(TestRun.namespace("oncall"), stack.bootstrapServers(), stack.redisUri(), rigs);
        this.config = TestRun.config(settings);
        this.clients = new KafkaClients(config.kafka());
        this.redis = RedisConnection.open(config.redis());
        this.keys = new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        this.store = TimerStore.of(redis, keys, config.timer());
        new RedisEpochs(redis, keys).stamp("on-call-test").join(); // no compensator to vouch for the empty Redis
        this.watermarks = Watermarks.of(redis, keys, config);
        new TopicProvisioner(clients).prepare(config);
        this.producer = clients.producer("oncall-test", Map.of());
    }

    public void createTopic(String topic) {
        new TopicProvisioner(clients).ensure(Set.of(topic));
    }

    /** Runs {@code lapse ARGS…} as a script would: stdout is no terminal. */
    public Lapse.Outcome lapse(String... args) {
        return Lapse.run(new OnCallEnvironment(environment(), Clock.systemUTC(), false), args);
    }

    /** Runs {@code lapse ARGS…} as a person at a terminal would. */
    public Lapse.Outcome lapseOnTerminal(String... args) {
        return Lapse.run(new OnCallEnvironment(environment(), Clock.systemUTC(), true), args);
    }

    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        for (ConfigKey key : ConfigKeys.all()) {
            if (settings.containsKey(key.name())) {
                env.put(key.envName(), settings.get(key.name()));
            }
        }
        return env;
    }

    /** The settings as a properties file, for --config. */
    public Path configFile(Map<String, String> overrides) throws Exception {
        return configFile(settings, overrides);
    }

    /** These settings with the overrides as a properties file, for --config. */
    public static Path configFile(Map<String, String> settings, Map<String, String> overrides) throws Exception {
        Map<String, String> file = new HashMap<>(settings);
        file.putAll(overrides);
        Path path = Files.createTempFile("lapse-oncall", ".properties");
        Files.writeString(
                path,
                String.join(
                        "\n",
                        file.entrySet().stream()
                                .map(e -> e.getKey() + "=" + e.getValue())
                                .toList()));
        return path;
    }

    public IngestService startIngest() {
        return started(IngestService.build(context(config)));
    }

    public Service startTimer() {
        return started(TimerService.build(context(config)));
    }

    /** A compensator keeping its state under {@code stateDir}. */
    public Service startCompensator(Path stateDir) {
        return started(
                CompensatorService.build(context(config.with(Map.of("compensator.state-dir", stateDir.toString())))));
    }

    private ServiceContext context(LapseConfig config) {
        return new ServiceContext(
                config,
                clients,
                new TopicProvisioner(clients).prepare(config),
                redis,
                store,
                watermarks,
                new RedisEpochs(redis, keys),
                registry,
                Clock.systemUTC());
    }

    /** The simulated platform: pushes for the orders its fleet starts, and answers pulls. */
    public UpstreamSimulator startUpstream(Duration pushInterval) {
        return started(new UpstreamSimulator(
                SimulatorSettings.manual(pushInterval), clients, config.topics().push(), Clock.systemUTC()));
    }

    public Service startPuller(UpstreamSimulator upstream) {
        // the runbook's refused orders are the only ones pulled: no other order's answer says that upstream refuses
        // them alone, and without patience their refusal is taken for one of the order at once, as on-call expects
        LapseConfig pulling =
                config.with(Map.of("upstream.base-url", upstream.baseUrl(), "upstream.refusal-patience", "0s"));
        return started(PullerService.build(context(pulling)));
    }

    /** The URL of /metrics of the services this rig runs. */
    public String metricsUrl() {
        if (management == null) {
            management = ManagementServer.start(
                    new ManagementSettings("127.0.0.1", config.management().port(), "lapse"), registry, new Health());
            started.addLast(management);
        }
        return "http://localhost:" + management.port() + "/metrics";
    }

    private <S extends Service> S started(S service) {
        service.start();
        started.push(service);
        return service;
    }

    /** Sends a record and waits for Kafka to acknowledge it. */
    public void send(String topic, String key, byte[] value, long timestamp) {
        try {
            producer.send(new ProducerRecord<>(
                            topic, null, timestamp, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value))
                    .get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot send to " + topic, e);
        }
    }

    public void push(String orderId, String status, long ts) {
        send(config.topics().push(), orderId, JsonCodec.STATUS_PUSH.encode(new StatusPush(orderId, status, ts)), ts);
    }

    /** Every record the topic holds now, in partition and offset order. */
    public List<ConsumerRecord<byte[], byte[]>> records(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer("oncall-test-reader", "oncall-test", Map.of())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            }
            return records;
        }
    }

    /** A port nothing listens on now, so that lapse status finds the rig's metrics where the configuration says. */
    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops what the rig started, newest first. */
    @Override
    public void close() throws Exception {
        while (!started.isEmpty()) {
            started.pop().close();
        }
        producer.close();
        redis.close();
    }
}
