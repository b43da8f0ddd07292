package io.lapse.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.lapse.config.LapseConfig;
import io.lapse.config.TestRun;
import io.lapse.config.TopicNames;
import io.lapse.devstack.Ports;
import io.lapse.devstack.RedisServer;
import io.lapse.kafka.ClusterLayout;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceDescriptor;
import io.lapse.lifecycle.ServiceName;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every service built as the runtime builds it, against a Kafka address nothing listens on and a Redis of the test's
 * own: building asks the network nothing, and what a built service reads and writes is what its descriptor says.
 */
@Tag("slow")
class ServiceBuildTest {

    private static final Pattern STAT = Pattern.compile("(total_connections_received|total_commands_processed):(\\d+)");

    private static RedisServer server;
    private static RedisClient observer;
    private static StatefulRedisConnection<String, String> observing;

    @TempDir
    Path stateDir;

    private final List<Service> built = new ArrayList<>();
    private RedisConnection redis;

    @BeforeAll
    static void startRedis() {
        server = RedisServer.start();
        observer = RedisClient.create(server.uri());
        observing = observer.connect();
    }

    @AfterAll
    static void stopRedis() {
        observing.close();
        observer.shutdown();
        server.close();
    }

    @AfterEach
    void closeServices() {
        built.forEach(Service::close);
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void buildingEveryServiceAsksKafkaAndRedisNothing() {
        LapseConfig config = config();
        ServiceContext context = context(config);
        Map<String, Long> before = redisStats();

        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (ServiceName name : ServiceName.ALL) {
                built.add(LapseRuntime.build(name, context));
            }
        });

        Map<String, Long> after = redisStats();
        assertThat(after.get("total_connections_received"))
                .as("connections to Redis opened while building")
                .isEqualTo(before.get("total_connections_received"));
        // the INFO that read the figures before is the one command between them
        assertThat(after.get("total_commands_processed") - before.get("total_commands_processed"))
                .as("commands Redis processed while building, beside the INFO that read the figures")
                .isEqualTo(1);
    }

    @Test
    void eachServiceUsesTheTopicsItsDescriptorNames() {
        LapseConfig config = config();
        ServiceContext context = context(config);
        TopicNames topics = config.topics();
        Set<String> contractTopics = Set.of(
                topics.push(),
                topics.expired(),
                topics.pulled(),
                topics.dlq(),
                topics.timerShards(),
                topics.fleetEvents(),
                topics.parked());
        Map<ServiceName, Uses> uses = new EnumMap<>(ServiceName.class);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (ServiceName name : ServiceName.ALL) {
                Service service = LapseRuntime.build(name, context);
                built.add(service);
                uses.put(name, Uses.of(service, context, contractTopics));
            }
        });

        for (ServiceName name : ServiceName.ALL) {
            ServiceDescriptor descriptor = name.in(config);
            assertThat(built.get(name.ordinal()).name()).isEqualTo(descriptor.command());
            assertThat(uses.get(name).topics())
                    .as("the topics %s was built to read or write", name)
                    .isEqualTo(descriptor.topics());
            assertThat(descriptor.reads())
                    .as("what %s subscribes to when built", name)
                    .containsAll(uses.get(name).subscribed());
        }
        assertThat(uses.get(ServiceName.INGEST).subscribed())
                .isEqualTo(ServiceName.INGEST.in(config).reads());
        assertThat(uses.get(ServiceName.PULLER).subscribed())
                .isEqualTo(ServiceName.PULLER.in(config).reads());
    }

    private LapseConfig config() {
        return TestRun.config(TestRun.settings(
                TestRun.namespace("build"),
                "127.0.0.1:" + Ports.free(),
                server.uri(),
                Map.of("compensator.state-dir", stateDir.toString())));
    }

    /** As the runtime makes it once every topic exists, with the configured partitions. */
    private ServiceContext context(LapseConfig config) {
        redis = RedisConnection.open(config.redis());
        Map<String, Integer> partitions = new HashMap<>();
        ServiceName.describe(ServiceName.ALL, config)
                .forEach(service -> service.topics()
                        .forEach(topic -> partitions.put(topic, config.kafka().partitions())));
        return ServiceContext.of(
                config,
                new KafkaClients(config.kafka()),
                new ClusterLayout("build-test-cluster", partitions),
                redis,
                new SimpleMeterRegistry(),
                Clock.systemUTC());
    }

    private static Map<String, Long> redisStats() {
        Map<String, Long> stats = new HashMap<>();
        Matcher stat = STAT.matcher(observing.sync().info("stats"));
        while (stat.find()) {
            stats.put(stat.group(1), Long.parseLong(stat.group(2)));
        }
        return stats;
    }

    /**
     * What a built service holds of Kafka: the topic names among its parts (its own, not the context's shared ones
     * nor the configuration's, which names every topic) and what its consumers subscribed to.
     */
    private record Uses(Set<String> topics, Set<String> subscribed) {

        static Uses of(Service service, ServiceContext context, Set<String> contractTopics)
                throws IllegalAccessException {
            Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            // shared by every service of the process, and the configuration, which names every topic
            seen.addAll(List.of(
                    context,
                    context.config(),
                    context.clients(),
                    context.cluster(),
                    context.redis(),
                    context.store(),
                    context.watermarks(),
                    context.epochs(),
                    context.registry(),
                    context.clock()));
            Set<String> topics = new HashSet<>();
            Set<String> subscribed = new HashSet<>();
            Deque<Object> next = new ArrayDeque<>(List.of(service));
            while (!next.isEmpty()) {
                Object part = next.pop();
                if (part == null || !seen.add(part)) {
                    continue;
                }
                if (part instanceof String text) {
                    if (contractTopics.contains(text)) {
                        topics.add(text);
                    }
                } else if (part instanceof KafkaConsumer<?, ?> consumer) {
                    subscribed.addAll(consumer.subscription());
                    topics.addAll(consumer.subscription());
                } else if (part instanceof Collection<?> many) {
                    next.addAll(many.stream().filter(o -> o != null).toList());
                } else if (part instanceof Map<?, ?> map) {
                    map.forEach((key, value) -> {
                        if (key != null) {
                            next.push(key);
                        }
                        if (value != null) {
                            next.push(value);
                        }
                    });
                } else if (part instanceof Object[] array) {
                    for (Object element : array) {
                        if (element != null) {
                            next.push(element);
                        }
                    }
                } else if (part instanceof Optional<?> optional) {
                    optional.ifPresent(next::push);
                } else if (part instanceof AtomicReference<?> reference) {
                    Optional.ofNullable(reference.get()).ifPresent(next::push);
                } else if (isLapses(part.getClass())) {
                    for (Class<?> type = part.getClass(); type != null && isLapses(type); type = type.getSuperclass()) {
                        for (Field field : type.getDeclaredFields()) {
                            if (Modifier.isStatic(field.getModifiers())
                                    || field.getType().isPrimitive()) {
                                continue;
                            }
                            field.setAccessible(true);
                            Object value = field.get(part);
                            if (value != null) {
                                next.push(value);
                            }
                        }
                    }
                }
            }
            return new Uses(topics, subscribed);
        }

        /** Lapse's own classes and the lambdas they made, but not the configuration's. */
        private static boolean isLapses(Class<?> type) {
            String name = type.getName();
            return name.startsWith("io.lapse.") && !name.startsWith("io.lapse.config.");
        }
    }
}
