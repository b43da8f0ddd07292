package io.lapse.bench.peers.lapse;

import io.lapse.bench.harness.BenchServices;
import io.lapse.bench.load.UpstreamProducerSettings;
import io.lapse.bench.peers.server.OnRedis;
import io.lapse.bench.peers.server.RedisHost;
import io.lapse.bench.peers.system.EntityIds;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.LatenessParts;
import io.lapse.bench.peers.system.PeerSystem;
import io.lapse.bench.peers.system.ProbeCost;
import io.lapse.bench.peers.system.WatermarkTrace;
import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.devstack.KafkaBroker;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.runtime.LapseRuntime;
import io.lapse.store.RedisConnection;
import io.lapse.store.watermarks.Watermarks;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lapse's ingest and timer in this JVM, started as {@code ./lapse bench} starts them, on the shared broker and this
 * system's own redis-server: a re-arm is a status push to the push topic, a fire is a TimerExpired the benchmark
 * reads from the expired topic.
 */
public final class LapseSystem extends OnRedis {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final Logger log = LoggerFactory.getLogger(LapseSystem.class);
    private static final int PARTITIONS = 6;
    static final Map<String, Object> PRODUCER_SETTINGS = UpstreamProducerSettings.with(
            Map.of(ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024, ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000));

    private final KafkaProducer<byte[], byte[]> producer;
    private final String pushTopic;
    private final long deadlineMillis;
    private final LongAdder failedSends = new LongAdder();
    private final TopicTail expired;
    private final LapseRuntime lapse;
    private final RedisConnection traceConnection;
    private final WatermarkTrace trace;
    private final LatenessParts.Tally parts;
    private final ProbeCost.Reading started;

    private LapseSystem(
            RedisHost host,
            KafkaClients clients,
            LapseConfig config,
            Duration deadline,
            TopicTail expired,
            LapseRuntime lapse,
            RedisConnection traceConnection,
            WatermarkTrace trace,
            LatenessParts.Tally parts) {
        super(host);
        this.producer = clients.producer("peers-load", PRODUCER_SETTINGS);
        this.pushTopic = config.topics().push();
        this.deadlineMillis = deadline.toMillis();
        this.expired = expired;
        this.lapse = lapse;
        this.traceConnection = traceConnection;
        this.trace = trace;
        this.parts = parts;
        this.started = ProbeCost.Reading.now(roundTrips(lapse.registry()).count());
    }

    /**
     * @param mode  timer.mode: zset or ttl
     * @param extra Lapse settings of this variant, on top of the benchmark's
     */
    public static PeerSystem start(
            KafkaBroker broker, String mode, Map<String, String> extra, Duration deadline, Fires fires)
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
        LapseRuntime lapse = null;
        RedisConnection traceConnection = null;
        WatermarkTrace trace = null;
        TopicTail expired = null;
        try {
            lapse = BenchServices.start(config, EnumSet.of(ServiceName.INGEST, ServiceName.TIMER));
            traceConnection = RedisConnection.open(config.redis());
            trace = WatermarkTrace.start(
                    Watermarks.of(traceConnection, lapse.store().keys(), config), heldBack(lapse.registry()));
            LatenessParts.Tally parts =
                    new LatenessParts.Tally(config.timer().watermarkSlack().toMillis());
            WatermarkTrace passages = trace;
            expired = TopicTail.start(clients, config.topics().expired(), PARTITIONS, (record, at) -> {
                try {
                    TimerExpired event = JsonCodec.TIMER_EXPIRED.decode(record.value());
                    fires.fired(EntityIds.indexOf(event.orderId()), at);
                    passages.passed(event.deadline())
                            .ifPresentOrElse(
                                    passage -> parts.record(
                                            event.deadline(), passage, event.firedAt(), record.timestamp(), at),
                                    parts::unsampled);
                } catch (InvalidRecordException e) {
                    fires.fired(-1, at);
                }
            });
            return new LapseSystem(host, clients, config, deadline, expired, lapse, traceConnection, trace, parts);
        } catch (Exception e) {
            closeAll(expired, trace, traceConnection, lapse, host);
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
    public Optional<LatenessParts> latenessParts() {
        Timer roundTrips = roundTrips(lapse.registry());
        Timer behindMark =
                lapse.registry().get(MetricNames.INGEST_RECORD_BEHIND_MARK).timer();
        return Optional.of(parts.snapshot(
                histogram(roundTrips),
                histogram(behindMark),
                behindMark.max(TimeUnit.MILLISECONDS),
                ProbeCost.Reading.now(roundTrips.count()).since(started)));
    }

    private static Timer roundTrips(MeterRegistry registry) {
        return registry.get(MetricNames.INGEST_PROOF_ROUND_TRIP).timer();
    }

    /** The timer's buckets as a histogram of their upper bounds: Prometheus's buckets count cumulatively. */
    private static Histogram histogram(Timer timer) {
        Histogram millis = LatenessParts.histogram();
        double below = 0;
        for (CountAtBucket bucket : timer.takeSnapshot().histogramCounts()) {
            long count = Math.round(bucket.count() - below);
            if (count > 0) {
                millis.recordValueWithCount((long) Math.ceil(bucket.bucket(TimeUnit.MILLISECONDS)), count);
            }
            below = bucket.count();
        }
        return millis;
    }

    @Override
    public void close() {
        producer.close();
        closeAll(expired, trace, traceConnection, lapse, host);
    }

    private static DoubleSupplier heldBack(MeterRegistry registry) {
        return () -> {
            Gauge gauge = registry.find(MetricNames.INGEST_WATERMARK_HELD_BACK).gauge();
            return gauge == null ? 0 : gauge.value();
        };
    }

    /** Closes what was started, the last first; null for what was not. */
    private static void closeAll(AutoCloseable... started) {
        for (AutoCloseable part : started) {
            if (part != null) {
                try {
                    part.close();
                } catch (Exception e) {
                    log.warn("closing {} failed", part, e);
                }
            }
        }
    }
}
