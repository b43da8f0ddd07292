package io.lapse.faults.lab;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.Durations;
import io.lapse.config.FleetSettings;
import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.config.TopicNames;
import io.lapse.devstack.TopicReadiness;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.settings.SuiteSettings;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.LibrdkafkaPartitioner;
import io.lapse.faults.workload.Workload;
import io.lapse.kafka.KafkaClients;
import io.lapse.simulator.PushGenerator;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One set of topics, consumer groups and Redis key prefix, with one Lapse process per service using them, the push
 * generator writing to them and the taps reading them back. Scenarios share a generation while they pass; after one
 * fails, the next gets a fresh generation, so that what broke the pipeline cannot count against another scenario.
 */
public final class Generation implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Generation.class);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);
    /** Four JVMs starting on two shared cores. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private static final Duration WARM_UP_TIMEOUT = Duration.ofSeconds(120);
    private static final int PRODUCERS_SEE_PARTITIONS_MS = 1_000;
    /**
     * The pushes of each tenth of the push interval go to the broker together. Each order at its own phase made 300
     * orders 110 produce requests a second, each waking every reader of the push topic (200 fetches a second): four
     * times the broker's work for the same pushes that a fleet filling its producer's batches causes, and the cores a
     * restarted service needed (docs/benchmarks.md, "The fault suite's own cost").
     */
    private static final int PUSH_TICKS_PER_INTERVAL = 10;

    private final String name;
    private final Map<ConfigKey, String> settings;
    private final Layout layout;
    private final LapseConfig config;
    private final LapseServices services;
    private final Observations observations;
    private final PushGenerator pushes;
    private final KafkaProducer<byte[], byte[]> poisonProducer;

    private Generation(
            String name,
            Map<ConfigKey, String> settings,
            Layout layout,
            LapseConfig config,
            LapseServices services,
            Observations observations,
            PushGenerator pushes,
            KafkaProducer<byte[], byte[]> poisonProducer) {
        this.name = name;
        this.settings = settings;
        this.layout = layout;
        this.config = config;
        this.services = services;
        this.observations = observations;
        this.pushes = pushes;
        this.poisonProducer = poisonProducer;
    }

    /**
     * Creates the topics, starts the taps, the pushes and one process per service; returns once all are alive.
     *
     * @param extra  Lapse settings beyond the suite's
     * @param layout a process per service, or all in one
     */
    static Generation start(Lab lab, int number, Map<ConfigKey, String> extra, Layout layout) {
        String name = "faults-g" + number;
        SuiteSettings settings = lab.settings();
        Map<ConfigKey, String> lapse =
                lapseSettings(name, lab, Boolean.parseBoolean(extra.get(ConfigKeys.REDIS_CLUSTER)));
        lapse.putAll(extra);
        Map<String, String> harness = lapse.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().name(), Map.Entry::getValue));
        // the upstream's producers are written against librdkafka; Lapse's own processes keep their defaults
        harness.put("kafka." + ProducerConfig.PARTITIONER_CLASS_CONFIG, LibrdkafkaPartitioner.class.getName());
        // and notice partitions added within a second (librdkafka's default: five minutes), so that partitions-added
        // moves keys while it watches
        harness.put("kafka." + ProducerConfig.METADATA_MAX_AGE_CONFIG, Integer.toString(PRODUCERS_SEE_PARTITIONS_MS));
        LapseConfig config = LapseConfig.load(null, Map.of()).with(harness);
        createTopics(lab, config.topics(), settings.partitions());
        KafkaClients clients = new KafkaClients(config.kafka());
        LapseServices services = new LapseServices(
                lab.launcher(),
                lapse.entrySet().stream()
                        .collect(Collectors.toMap(e -> e.getKey().envName(), Map.Entry::getValue)),
                settings.workDir().resolve(name));
        Generation generation = new Generation(
                name,
                Map.copyOf(extra),
                layout,
                config,
                services,
                new Observations(
                        lab.broker().bootstrapServers(),
                        config.topics(),
                        settings.partitions(),
                        config.timer()::isTerminal),
                new PushGenerator(
                        lab.fleet(),
                        clients,
                        config.topics().push(),
                        settings.pushInterval(),
                        settings.pushInterval().dividedBy(PUSH_TICKS_PER_INTERVAL),
                        () -> {}),
                clients.producer("faults-poison", Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none")));
        try {
            generation.pushes.start();
            if (layout == Layout.ONE_PROCESS) {
                services.addAll();
            } else {
                for (Role service : Role.values()) {
                    services.add(service);
                }
            }
            generation.requireAlive(lab, START_TIMEOUT);
            generation.warmUp(lab);
            Settling.await(name, services.all());
        } catch (RuntimeException e) {
            generation.close();
            throw e;
        }
        log.info("{}: every service runs", name);
        return generation;
    }

    /**
     * Runs a workload of the scenarios' shape until its silent orders have fired and been answered, so that a
     * generation whose pipeline does not fire at all is found out before any scenario counts on it.
     */
    private void warmUp(Lab lab) {
        Workload workload = new Workload(lab.fleet(), name + "-warm-up", lab.settings());
        long startedAt = workload.start();
        try {
            workload.silenceAfterWarmUp(observations::allSpoke, startedAt, WARM_UP_TIMEOUT);
            Waiting.require(
                    () -> observations.allExpiredAndAnswered(workload.silent()),
                    WARM_UP_TIMEOUT,
                    "an expiry and a pull result for every silent order of " + name + "'s warm-up");
        } finally {
            workload.end();
        }
    }

    /** @param onCluster whether the generation runs on the lab's Redis Cluster rather than its redis-server */
    private static Map<ConfigKey, String> lapseSettings(String name, Lab lab, boolean onCluster) {
        SuiteSettings settings = lab.settings();
        Map<ConfigKey, String> lapse = new LinkedHashMap<>();
        lapse.put(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS, lab.broker().bootstrapServers());
        lapse.put(
                ConfigKeys.REDIS_URI,
                onCluster ? lab.redisCluster().uri() : lab.redis().uri());
        lapse.putAll(new Namespace(name).keys());
        lapse.put(ConfigKeys.TOPICS_PARTITIONS, Integer.toString(settings.partitions()));
        lapse.put(ConfigKeys.TIMER_TTL, Durations.format(settings.ttl()));
        lapse.put(ConfigKeys.TIMER_REPEAT, Durations.format(settings.ttl()));
        lapse.put(ConfigKeys.UPSTREAM_BASE_URL, lab.upstream().baseUrl());
        lapse.put(ConfigKeys.COMPENSATOR_SCAN_INTERVAL, Durations.format(settings.scanInterval()));
        // a fleet silence is told within a few push intervals, against the shortest baseline the window allows
        Duration fleetWindow = settings.pushInterval().multipliedBy(2);
        lapse.put(ConfigKeys.FLEET_WINDOW, Durations.format(fleetWindow));
        lapse.put(ConfigKeys.FLEET_BASELINE, Durations.format(FleetSettings.leastBaseline(fleetWindow)));
        return lapse;
    }

    /** The expired topic stamps LogAppendTime, so that the tally knows when each expiry reached Kafka. */
    private static void createTopics(Lab lab, TopicNames topics, int partitions) {
        for (String topic : new String[] {topics.push(), topics.pulled(), topics.dlq(), topics.fleetEvents()}) {
            TopicReadiness.createAndAwait(lab.admin(), new NewTopic(topic, partitions, (short) 1), TOPIC_TIMEOUT);
        }
        TopicReadiness.createAndAwait(
                lab.admin(),
                new NewTopic(topics.expired(), partitions, (short) 1)
                        .configs(Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime")),
                TOPIC_TIMEOUT);
    }

    /** @throws IllegalStateException with what is wrong and the tails of the logs, when not alive in time */
    public void requireAlive(Lab lab, Duration timeout) {
        Liveness.Verdict verdict = liveness(lab, timeout);
        if (!verdict.alive()) {
            String tails = services.all().stream()
                    .map(p -> "--- " + p.logPath() + "\n" + p.logTail())
                    .collect(Collectors.joining("\n"));
            throw new IllegalStateException(
                    name + " is not alive within " + timeout.toSeconds() + " s: " + verdict.detail() + "\n" + tails);
        }
    }

    public Liveness.Verdict liveness(Lab lab, Duration timeout) {
        return Liveness.check(services, groups(), lab.admin(), timeout);
    }

    private Map<Role, String> groups() {
        Map<Role, String> groups = new EnumMap<>(Role.class);
        for (Role service : Role.values()) {
            groups.put(service, group(service));
        }
        return groups;
    }

    /** The consumer group the service's instances join (the compensator's: its Kafka Streams application id). */
    public String group(Role service) {
        return config.source().string(service.group);
    }

    public String name() {
        return name;
    }

    /** The Lapse settings it runs with beyond the suite's. */
    public Map<ConfigKey, String> settings() {
        return settings;
    }

    public Layout layout() {
        return layout;
    }

    public TopicNames topics() {
        return config.topics();
    }

    public LapseServices services() {
        return services;
    }

    public Observations observations() {
        return observations;
    }

    public KafkaProducer<byte[], byte[]> poisonProducer() {
        return poisonProducer;
    }

    @Override
    public void close() {
        pushes.close();
        services.close();
        observations.close();
        poisonProducer.close(Duration.ofSeconds(5));
    }
}
