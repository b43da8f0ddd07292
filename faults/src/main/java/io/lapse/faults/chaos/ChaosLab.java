package io.lapse.faults.chaos;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.Durations;
import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.config.TopicNames;
import io.lapse.devstack.KafkaBrokerProcess;
import io.lapse.devstack.TopicReadiness;
import io.lapse.faults.fault.PoisonInjector;
import io.lapse.faults.lab.LapseLauncher;
import io.lapse.faults.lab.LapseServices;
import io.lapse.faults.lab.Liveness;
import io.lapse.faults.lab.Relay;
import io.lapse.faults.lab.Role;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.workload.LibrdkafkaPartitioner;
import io.lapse.kafka.KafkaClients;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.PushGenerator;
import io.lapse.simulator.UpstreamApi;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;

/**
 * What a chaos run strikes: a Kafka broker in a JVM of its own, a redis-server with a replica, the simulated upstream
 * (its orders and its HTTP API), and {@link #INSTANCES} instances of every Lapse service, each its own process started
 * as a user starts it. Lapse reaches the broker and Redis through relays that can stall; the lab itself (the pushes,
 * the taps, its commands to Redis) goes straight to them.
 */
final class ChaosLab implements AutoCloseable {

    /** Instances of every service. */
    static final int INSTANCES = 2;

    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);
    /** Eight JVMs starting on two shared cores. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final ChaosOptions options;
    private final String namespace;
    private Relay brokerLink;
    private KafkaBrokerProcess broker;
    private RedisPair redis;
    private Fleet fleet;
    private UpstreamApi upstream;
    private Admin admin;
    private TopicNames topics;
    private Map<Role, String> groups;
    private Observations taps;
    private LapseServices services;
    private ChurnWorkload churn;
    private PushGenerator pushes;
    private PoisonInjector poison;

    private ChaosLab(ChaosOptions options, String namespace) {
        this.options = options;
        this.namespace = namespace;
    }

    /** Starts everything but the pushes; returns once every Lapse instance is alive. */
    static ChaosLab start(ChaosOptions options, LapseLauncher launcher, String classpath, Path dir) {
        ChaosLab lab = new ChaosLab(
                options,
                "chaos-" + Long.toHexString(options.seed()) + "-"
                        + Long.toString(System.currentTimeMillis() % 1_000_000, 36));
        try {
            lab.build(launcher, classpath, dir);
            return lab;
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
    }

    private void build(LapseLauncher launcher, String classpath, Path dir) {
        brokerLink = opened(Relay.start("broker", 0));
        broker = opened(KafkaBrokerProcess.startBehindRelay(classpath, brokerLink.port()));
        brokerLink.retarget(broker.relayedPort());
        redis = opened(RedisPair.start());
        fleet = new Fleet(Clock.systemUTC());
        upstream = opened(new UpstreamApi(fleet, 0, 0, Duration.ZERO));
        upstream.start();
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
        opened(() -> admin.close(Duration.ofSeconds(5)));

        Map<ConfigKey, String> settings = lapseSettings();
        LapseConfig config = LapseConfig.load(null, Map.of())
                .with(settings.entrySet().stream()
                        .collect(Collectors.toMap(e -> e.getKey().name(), Map.Entry::getValue)));
        topics = config.topics();
        groups = new EnumMap<>(Role.class);
        for (Role service : Role.values()) {
            groups.put(service, config.source().string(service.group));
        }
        createTopics();
        // straight to the broker: the judge must see what Kafka holds, whatever Lapse's link suffers
        taps = opened(
                new Observations(broker.bootstrapServers(), topics, options.partitions(), config.timer()::isTerminal));

        services = opened(new LapseServices(
                launcher,
                settings.entrySet().stream()
                        .collect(Collectors.toMap(e -> e.getKey().envName(), Map.Entry::getValue)),
                dir));
        for (int instance = 0; instance < INSTANCES; instance++) {
            for (Role service : Role.values()) {
                services.add(service);
            }
        }
        Liveness.Verdict alive = liveness(START_TIMEOUT);
        if (!alive.alive()) {
            throw new IllegalStateException("the chaos lab's services are not alive within " + START_TIMEOUT.toSeconds()
                    + " s: " + alive.detail());
        }

        // the upstream's producers are written against librdkafka, straight to the broker
        KafkaClients clients = new KafkaClients(LapseConfig.load(null, Map.of())
                .with(Map.of(
                        ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.name(),
                        broker.bootstrapServers(),
                        "kafka." + ProducerConfig.PARTITIONER_CLASS_CONFIG,
                        LibrdkafkaPartitioner.class.getName()))
                .kafka());
        churn = new ChurnWorkload(fleet, options.orders(), options.seed());
        pushes = opened(new PushGenerator(fleet, clients, topics.push(), options.pushInterval(), churn));
        KafkaProducer<byte[], byte[]> poisonProducer =
                clients.producer("chaos-poison", Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none"));
        opened(() -> poisonProducer.close(Duration.ofSeconds(5)));
        poison = opened(new PoisonInjector(poisonProducer, topics.push(), topics.expired(), namespace + "-poison-"));
    }

    private Map<ConfigKey, String> lapseSettings() {
        Map<ConfigKey, String> settings = new LinkedHashMap<>(new Namespace(namespace).keys());
        settings.put(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS, "127.0.0.1:" + brokerLink.port());
        settings.put(ConfigKeys.REDIS_URI, redis.uri());
        settings.put(ConfigKeys.UPSTREAM_BASE_URL, upstream.baseUrl());
        settings.put(ConfigKeys.TOPICS_PARTITIONS, Integer.toString(options.partitions()));
        settings.put(ConfigKeys.TIMER_TTL, Durations.format(options.ttl()));
        settings.put(ConfigKeys.TIMER_REPEAT, Durations.format(options.ttl()));
        settings.put(ConfigKeys.COMPENSATOR_SCAN_INTERVAL, Durations.format(options.scanInterval()));
        return settings;
    }

    /**
     * The expired and pulled topics stamp LogAppendTime, so that the judge knows when each expiry and each pull result
     * reached Kafka. A pull result's own timestamp is the puller's clock when it sent it: a puller frozen or stopped
     * right after sending appends it seconds later, and a pulled status counted from then would make an expiry the
     * timer rightly fired before it reached Kafka a live order fired (seed 1795924351, chaos-413: its pull result stamped
     * 3 s before the deadline by a puller frozen for 8.2 s at that moment).
     */
    private void createTopics() {
        for (String topic : List.of(topics.push(), topics.dlq(), topics.fleetEvents())) {
            TopicReadiness.createAndAwait(admin, new NewTopic(topic, options.partitions(), (short) 1), TOPIC_TIMEOUT);
        }
        for (String topic : List.of(topics.expired(), topics.pulled())) {
            TopicReadiness.createAndAwait(
                    admin,
                    new NewTopic(topic, options.partitions(), (short) 1)
                            .configs(Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime")),
                    TOPIC_TIMEOUT);
        }
    }

    Liveness.Verdict liveness(Duration timeout) {
        return Liveness.check(services, groups, admin, timeout);
    }

    /** The names of every instance, in the order they were started: what a kill, freeze or restart may strike. */
    static List<String> instanceNames() {
        List<String> names = new ArrayList<>();
        for (int instance = 1; instance <= INSTANCES; instance++) {
            for (Role service : Role.values()) {
                names.add(service.command + "-" + instance);
            }
        }
        return names;
    }

    String keyPrefix() {
        return namespace;
    }

    Relay brokerLink() {
        return brokerLink;
    }

    RedisPair redis() {
        return redis;
    }

    UpstreamApi upstream() {
        return upstream;
    }

    Admin admin() {
        return admin;
    }

    /** Lapse's topics read back as they are written. */
    Observations taps() {
        return taps;
    }

    LapseServices services() {
        return services;
    }

    ChurnWorkload churn() {
        return churn;
    }

    PushGenerator pushes() {
        return pushes;
    }

    PoisonInjector poison() {
        return poison;
    }

    private <T extends AutoCloseable> T opened(T resource) {
        opened.add(resource);
        return resource;
    }

    /** Closes everything it started, the last first. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing the chaos lab failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
