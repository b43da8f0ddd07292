package io.lapse.bench.peers;

import io.lapse.bench.BenchServices;
import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.devstack.KafkaBroker;
import io.lapse.devstack.RedisServer;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.kafka.KafkaClients;
import io.lapse.runtime.LapseRuntime;
import io.lapse.runtime.ServiceName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Lapse's ingest and timer in this JVM, started as {@code ./lapse bench} starts them, on the shared broker and this
 * system's own redis-server: a re-arm is a status push to the push topic, a fire is a TimerExpired the benchmark
 * reads from the expired topic.
 */
final class LapseSystem implements PeerSystem {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final int PARTITIONS = 6;
    /** acks=1 and lingering like a busy upstream, as the load of {@code ./lapse bench} */
    private static final Map<String, Object> PRODUCER_SETTINGS = Map.of(
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

    private final RedisServer server;
    private final RedisLink link;
    private final KafkaProducer<byte[], byte[]> producer;
    private final String pushTopic;
    private final long deadlineMillis;
    private final LongAdder failedSends = new LongAdder();
    private final TopicTail expired;
    private final LapseRuntime lapse;

    private LapseSystem(
            RedisServer server,
            RedisLink link,
            KafkaClients clients,
            LapseConfig config,
            Duration deadline,
            TopicTail expired,
            LapseRuntime lapse) {
        this.server = server;
        this.link = link;
        this.producer = clients.producer("peers-load", PRODUCER_SETTINGS);
        this.pushTopic = config.topics().push();
        this.deadlineMillis = deadline.toMillis();
        this.expired = expired;
        this.lapse = lapse;
    }

    /** @param mode timer.mode: zset or ttl */
    static PeerSystem start(KafkaBroker broker, RedisServer server, String mode, Duration deadline, Fires fires)
            throws Exception {
        String name = "peers-" + mode + "-" + RUNS.incrementAndGet();
        Map<String, String> settings = new HashMap<>(new Namespace(name).settings());
        settings.put("kafka.bootstrap.servers", broker.bootstrapServers());
        settings.put("redis.uri", server.uri());
        settings.put("management.port", "0");
        settings.put("topics.partitions", Integer.toString(PARTITIONS));
        settings.put("timer.mode", mode);
        settings.put("timer.ttl", deadline.toMillis() + "ms");
        // only first expiries are measured; repeats would only add load
        settings.put("timer.repeat", "1h");
        LapseConfig config = LapseConfig.load(null, Map.of()).with(settings);
        KafkaClients clients = new KafkaClients(config.kafka());
        broker.createTopic(config.topics().expired(), PARTITIONS);
        TopicTail expired = TopicTail.start(clients, config.topics().expired(), PARTITIONS, (record, at) -> {
            try {
                fires.fired(
                        EntityIds.indexOf(
                                JsonCodec.TIMER_EXPIRED.decode(record.value()).orderId()),
                        at);
            } catch (InvalidRecordException e) {
                fires.fired(-1, at);
            }
        });
        RedisLink link = RedisLink.open(server.uri());
        try {
            LapseRuntime lapse = BenchServices.start(config, EnumSet.of(ServiceName.INGEST, ServiceName.TIMER));
            return new LapseSystem(server, link, clients, config, deadline, expired, lapse);
        } catch (Exception e) {
            link.close();
            expired.close();
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

    @Override
    public long memoryBytes() throws Exception {
        return link.usedMemory();
    }

    @Override
    public long serverPid() {
        return server.pid();
    }

    @Override
    public void close() {
        producer.close();
        lapse.close();
        expired.close();
        link.close();
    }
}
