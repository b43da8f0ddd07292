package io.lapse.timer;

import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.config.TestRun;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.ClusterLayout;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.store.RedisConnection;
import io.lapse.store.ServiceContext;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.WatermarkReport;
import io.lapse.store.watermarks.Watermarks;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Ingest and timer instances on one isolated set of topics, consumer groups and Redis keys, with a producer for
 * pushes and a recorder of the expired topic. Everything it starts closes with it, newest first.
 */
final class TimerPipeline implements AutoCloseable {

    final LapseConfig config;
    final RedisConnection redis;
    final TimerStore store;
    final Watermarks watermarks;
    private final KafkaClients clients;
    private final ClusterLayout cluster;
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<AutoCloseable> started = new ArrayList<>();
    // started with the pipeline: started lazily, its first read can take longer than a test's window under load
    private final TopicRecorder expired;

    TimerPipeline(String bootstrapServers, String redisUri, Map<String, String> overrides) {
        this(bootstrapServers, redisUri, TestRun.namespace("pipeline"), overrides);
    }

    /** @param namespace of the run's topics, consumer groups and Redis keys: another pipeline's, to follow it */
    TimerPipeline(String bootstrapServers, String redisUri, Namespace namespace, Map<String, String> overrides) {
        config = TestRun.config(TestRun.settings(namespace, bootstrapServers, redisUri, overrides));
        redis = RedisConnection.open(config.redis());
        TimerKeys keys =
                new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        store = TimerStore.of(redis, keys, config.timer());
        watermarks = Watermarks.of(redis, keys, config);
        new RedisEpochs(redis, keys).stamp("timer-test").join(); // no compensator here to vouch for the empty Redis
        clients = new KafkaClients(config.kafka());
        cluster = new TopicProvisioner(clients).prepare(config);
        producer = clients.producer("test-pushes", Map.of());
        expired = TopicRecorder.start(
                config.kafka().bootstrapServers(), config.topics().expired());
    }

    /**
     * Reports, as ingest would, that every partition of the push and pulled topics is read so far that the
     * watermark (the slack taken off) is {@code watermark}.
     */
    void ingestHasReadUpTo(long watermark) {
        long mark = watermark + config.timer().watermarkSlack().toMillis();
        int partitions = config.kafka().partitions();
        Map<String, Long> marks = new HashMap<>();
        for (String topic : List.of(config.topics().push(), config.topics().pulled())) {
            for (int partition = 0; partition < partitions; partition++) {
                marks.put(Watermarks.field(topic, partition), mark);
            }
        }
        watermarks
                .report(new WatermarkReport(
                        marks,
                        Map.of(
                                config.topics().push(),
                                partitions,
                                config.topics().pulled(),
                                partitions),
                        mark,
                        System.currentTimeMillis()))
                .join();
    }

    IngestService startIngest() {
        return startIngest(store, Map.of());
    }

    /** An ingest instance that applies to {@code store} (the real one, or one wrapping it), with some keys replaced. */
    IngestService startIngest(TimerStore store, Map<String, String> overrides) {
        LapseConfig changed = config.with(overrides);
        return started(IngestService.build(new ServiceContext(
                changed,
                new KafkaClients(changed.kafka()),
                cluster,
                redis,
                store,
                watermarks,
                new RedisEpochs(redis, store.keys()),
                new SimpleMeterRegistry(),
                Clock.systemUTC())));
    }

    TimerService startTimer() {
        return started(TimerService.build(new ServiceContext(
                config,
                clients,
                cluster,
                redis,
                this.store,
                watermarks,
                new RedisEpochs(redis, this.store.keys()),
                new SimpleMeterRegistry(),
                Clock.systemUTC())));
    }

    private <S extends Service> S started(S service) {
        service.start();
        started.add(service);
        return service;
    }

    /** A status push with ts = now, to the partition given (or the producer's choice when null). */
    void push(String orderId, Integer partition) {
        pushAt(orderId, System.currentTimeMillis(), partition);
    }

    /** A status push with this ts, to the partition given (or the producer's choice when null). */
    void pushAt(String orderId, long ts, Integer partition) {
        StatusPush push = new StatusPush(orderId, "CHARGING", ts);
        producer.send(new ProducerRecord<>(
                config.topics().push(),
                partition,
                orderId.getBytes(StandardCharsets.UTF_8),
                JsonCodec.STATUS_PUSH.encode(push)));
    }

    void flush() {
        producer.flush();
    }

    /** Waits until Redis watches every one of the orders: ingest has applied a push of each. */
    void awaitWatched(List<String> orders) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> store.inspect(orders).join().values().stream().allMatch(OrderView::isWatched));
    }

    List<TimerExpired> expiries() {
        return expired.values(JsonCodec.TIMER_EXPIRED::decode);
    }

    @Override
    public void close() throws Exception {
        Collections.reverse(started);
        for (AutoCloseable service : started) {
            service.close();
        }
        expired.close();
        producer.close();
        redis.close();
    }
}
