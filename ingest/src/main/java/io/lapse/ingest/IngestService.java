package io.lapse.ingest;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.TimerStore;
import io.lapse.store.Watermarks;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.IsolationLevel;

/**
 * Consumes status pushes and pull results and keeps every order's timer in Redis armed, in batches. Offsets are
 * committed only after Redis (and the dead-letter topic, for bad records) acknowledged the batch.
 */
public final class IngestService implements Service {

    private static final int NEW_PARTITIONS_SEEN_WITHIN_MS = 5_000;

    private final LapseConfig config;
    private final KafkaClients clients;
    private final TimerStore store;
    private final Watermarks watermarks;
    private final MeterRegistry registry;
    private final Clock clock;
    private KafkaProducer<byte[], byte[]> producer;
    private ServiceLoop loop;

    public IngestService(
            LapseConfig config,
            KafkaClients clients,
            TimerStore store,
            Watermarks watermarks,
            MeterRegistry registry,
            Clock clock) {
        this.config = config;
        this.clients = clients;
        this.store = store;
        this.watermarks = watermarks;
        this.registry = registry;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "ingest";
    }

    @Override
    public synchronized void start() {
        TopicNames topics = config.topics();
        new TopicProvisioner(clients).ensure(Set.of(topics.push(), topics.pulled(), topics.dlq()));
        KafkaConsumer<byte[], byte[]> consumer = clients.member(
                config.ingest().groupId(),
                "lapse-ingest",
                Map.of(
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        config.ingest().maxPollRecords(),
                        // a partition added to a topic holds the watermark back until ingest reads it
                        ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                        NEW_PARTITIONS_SEEN_WITHIN_MS));
        producer = clients.producer("lapse-ingest-dlq", Map.of());
        BrokerEndOffsets endOffsets =
                new BrokerEndOffsets(clients.admin(), List.of(topics.push(), topics.pulled()), isolation());
        IngestMetrics metrics = new IngestMetrics(registry);
        IngestBatches batches = new IngestBatches(
                consumer,
                new RecordReader(topics, config.timer(), metrics),
                store,
                watermarks,
                new DeadLetterSink(producer, topics.dlq(), clock, registry, name()),
                metrics,
                clock,
                new EndOffsetProbe(endOffsets, clock),
                new PartitionProgress(
                        config.timer().watermarkSlack(), config.timer().ttl()));
        consumer.subscribe(List.of(topics.push(), topics.pulled()), batches.rebalanceListener());
        RedisClockSkew skew = new RedisClockSkew(
                watermarks::redisNow, clock, config.timer().watermarkSlack().toMillis());
        metrics.watchRedisClockSkew(skew::millis, config.timer().watermarkSlack());
        loop = new ServiceLoop(
                "lapse-ingest",
                () -> {
                    skew.askIfDue();
                    batches.next();
                },
                consumer::wakeup,
                () -> {
                    try {
                        batches.finish();
                    } finally {
                        // a consumer left open keeps its partitions from the next ingest until its session times out
                        consumer.close();
                        producer.close();
                        endOffsets.close();
                    }
                });
        loop.start();
    }

    /** The consumer's isolation level, which decides which end offset its position can reach. */
    private IsolationLevel isolation() {
        String configured = clients.settings().clientProperties().get(ConsumerConfig.ISOLATION_LEVEL_CONFIG);
        return "read_committed".equalsIgnoreCase(configured)
                ? IsolationLevel.READ_COMMITTED
                : IsolationLevel.READ_UNCOMMITTED;
    }

    @Override
    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop);
    }

    @Override
    public boolean isReady() {
        return loop != null && loop.isHealthy();
    }

    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.close();
        }
    }
}
