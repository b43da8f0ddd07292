package io.lapse.bench.peers;

import io.lapse.bench.harness.BenchServices;
import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.devstack.KafkaBroker;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaClients;
import io.lapse.runtime.LapseRuntime;
import io.lapse.runtime.ServiceName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Lapse's ingest and timer in this JVM, started as {@code ./lapse bench} starts them, on the shared broker and this
 * system's own redis-server: a re-arm is a status push to the push topic, a fire is a TimerExpired the benchmark
 * reads from the expired topic.
 */
final class LapseSystem extends OnRedis {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final long HIGHEST_MILLIS = 3_600_000;
    private static final int PARTITIONS = 6;
    /** acks=1 and lingering like a busy upstream, as the load of {@code ./lapse bench} */
    static final Map<String, Object> PRODUCER_SETTINGS = Map.of(
            ProducerConfig.ACKS_CONFIG,
            "1",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            false,
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.BATCH_SIZE_CONFIG,
            64 * 1024,
            ProducerConfig.MAX_BLOCK_MS_CONFIG,
            10_000);

    private final KafkaProducer<byte[], byte[]> producer;
    private final String pushTopic;
    private final long deadlineMillis;
    private final LongAdder failedSends = new LongAdder();
    private final TopicTail expired;
    private final LapseRuntime lapse;
    private final Histogram claimDelay;

    private LapseSystem(
            RedisHost host,
            KafkaClients clients,
            LapseConfig config,
            Duration deadline,
            TopicTail expired,
            LapseRuntime lapse,
            Histogram claimDelay) {
        super(host);
        this.producer = clients.producer("peers-load", PRODUCER_SETTINGS);
        this.pushTopic = config.topics().push();
        this.deadlineMillis = deadline.toMillis();
        this.expired = expired;
        this.lapse = lapse;
        this.claimDelay = claimDelay;
    }

    /**
     * @param mode  timer.mode: zset or ttl
     * @param extra Lapse settings of this variant, on top of the benchmark's
     */
    static PeerSystem start(KafkaBroker broker, String mode, Map<String, String> extra, Duration deadline, Fires fires)
            throws Exception {
        RedisHost host = RedisHost.start();
        String name = "peers-" + mode + "-" + RUNS.incrementAndGet();
        Map<String, String> settings = new HashMap<>(new Namespace(name).settings());
        settings.put("kafka.bootstrap.servers", broker.bootstrapServers());
        settings.put("redis.uri", host.uri());
        settings.put("management.port", "0");
        settings.put("topics.partitions", Integer.toString(PARTITIONS));
        settings.put("timer.mode", mode);
        settings.put("timer.ttl", deadline.toMillis() + "ms");
        // only first expiries are measured; repeats would only add load
        settings.put("timer.repeat", "1h");
        settings.putAll(extra);
        LapseConfig config = LapseConfig.load(null, Map.of()).with(settings);
        KafkaClients clients = new KafkaClients(config.kafka());
        broker.createTopic(config.topics().expired(), PARTITIONS);
        Histogram claimDelay = new Histogram(HIGHEST_MILLIS, 3);
        TopicTail expired = TopicTail.start(clients, config.topics().expired(), PARTITIONS, (record, at) -> {
            try {
                TimerExpired event = JsonCodec.TIMER_EXPIRED.decode(record.value());
                fires.fired(EntityIds.indexOf(event.orderId()), at);
                synchronized (claimDelay) {
                    claimDelay.recordValue(Math.max(0, Math.min(event.firedAt() - event.deadline(), HIGHEST_MILLIS)));
                }
            } catch (InvalidRecordException e) {
                fires.fired(-1, at);
            }
        });
        try {
            LapseRuntime lapse = BenchServices.start(config, EnumSet.of(ServiceName.INGEST, ServiceName.TIMER));
            return new LapseSystem(host, clients, config, deadline, expired, lapse, claimDelay);
        } catch (Exception e) {
            expired.close();
            host.close();
            throw e;
        }
    }

    @Override
    public void rearm(int[] entities, int count, long deadline) {
        expired.check();
        if (failedSends.sum() > 0) {
            throw new IllegalStateException(failedSends.sum() + " pushes not acknowledged by the broker");
        }
        long ts = deadline - deadlineMillis;
        for (int i = 0; i < count; i++) {
            String id = EntityIds.of(entities[i]);
            byte[] push = ("{\"orderId\":\"" + id + "\",\"status\":\"CHARGING\",\"ts\":" + ts + "}")
                    .getBytes(StandardCharsets.UTF_8);
            producer.send(new ProducerRecord<>(pushTopic, id.getBytes(StandardCharsets.UTF_8), push), (meta, e) -> {
                if (e != null) {
                    failedSends.increment();
                }
            });
        }
    }

    /** From the deadline to the claim in Redis (the event's firedAt, by Redis's clock); the rest is the publish. */
    @Override
    public Optional<Histogram> claimDelay() {
        synchronized (claimDelay) {
            return Optional.of(claimDelay.copy());
        }
    }

    @Override
    public void close() {
        producer.close();
        lapse.close();
        expired.close();
        host.close();
    }
}
