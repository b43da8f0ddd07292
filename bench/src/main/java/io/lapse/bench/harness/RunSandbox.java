package io.lapse.bench.harness;

import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.config.TopicNames;
import io.lapse.devstack.DevStack;
import io.lapse.kafka.GroupLag;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceDescriptor;
import io.lapse.lifecycle.ServiceName;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One measurement's own topics, consumer groups and Redis key prefix, all named after the run, so that nothing a
 * previous run left behind (a lagging group, a late expiry) can count in this one. Closing deletes the topics and
 * groups and empties Redis, so that the next run starts from the same memory and disk.
 */
public final class RunSandbox implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RunSandbox.class);
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final long TIMEOUT_SECONDS = 30;

    public final LapseConfig config;
    /** The settings of this run, as a properties file would hold them */
    public final Map<String, String> settings;

    public final KafkaClients clients;
    private static final Duration LAG_TIMEOUT = Duration.ofSeconds(10);

    final Admin admin;
    private final RedisProbe probe;

    private RunSandbox(Map<String, String> settings, RedisProbe probe) {
        this.settings = Map.copyOf(settings);
        this.config = LapseConfig.load(null, Map.of()).with(settings);
        this.clients = new KafkaClients(config.kafka());
        this.admin = clients.admin();
        this.probe = probe;
    }

    /** @param settings Lapse settings of this run, on top of the defaults (the environment is ignored) */
    public static RunSandbox open(DevStack stack, RedisProbe probe, String label, Map<String, String> settings) {
        String name = "bench-" + label + "-" + RUNS.incrementAndGet();
        Map<String, String> all = new HashMap<>(new Namespace(name).settings());
        all.put("kafka.bootstrap.servers", stack.bootstrapServers());
        all.put("redis.uri", stack.redisUri());
        all.put("management.port", "0");
        all.putAll(settings);
        return new RunSandbox(all, probe);
    }

    public int partitions() {
        return config.kafka().partitions();
    }

    /** Records of the push topic ingest has not applied and committed. */
    public long ingestLag() {
        return lag(config.ingest().groupId(), config.topics().push());
    }

    /**
     * Records of the topic the group has not committed, counting a partition it has not committed on from its start:
     * a lag of 0 means every record written so far is applied.
     */
    public long lag(String group, String topic) {
        return GroupLag.of(
                        admin,
                        group,
                        IntStream.range(0, partitions())
                                .mapToObj(p -> new TopicPartition(topic, p))
                                .toList(),
                        LAG_TIMEOUT)
                .total();
    }

    @Override
    public void close() {
        TopicNames topics = config.topics();
        try {
            admin.deleteConsumerGroups(ServiceName.describe(ServiceName.ALL, config).stream()
                            .map(ServiceDescriptor::group)
                            .toList())
                    .all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.debug("consumer groups not deleted (a group that never committed does not exist): {}", e.toString());
        }
        try {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<String> ours = Stream.of(
                            topics.push(),
                            topics.pulled(),
                            topics.dlq(),
                            topics.expired(),
                            topics.timerShards(),
                            topics.fleetEvents())
                    .filter(existing::contains)
                    .toList();
            admin.deleteTopics(ours).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("topics of {} not all deleted: {}", topics.push(), e.toString());
        }
        admin.close();
        try {
            probe.reset();
        } catch (Exception e) {
            throw new IllegalStateException("cannot reset Redis after a run", e);
        }
    }
}
