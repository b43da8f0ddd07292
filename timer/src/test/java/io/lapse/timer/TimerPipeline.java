package io.lapse.timer;

import io.lapse.config.LapseConfig;
import io.lapse.config.TimerMode;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.store.RedisConnection;
import io.lapse.store.RedisEpochs;
import io.lapse.store.RedisTimerStore;
import io.lapse.store.TimerKeys;
import io.lapse.store.TimerStore;
import io.lapse.store.TtlTimerStore;
import io.lapse.store.Watermarks;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ingest and timer instances on one isolated set of topics, consumer groups and Redis keys, with a producer for
 * pushes and a recorder of the expired topic. Everything it starts closes with it, newest first.
 */
final class TimerPipeline implements AutoCloseable {

    private static final AtomicInteger RUN = new AtomicInteger();

    final LapseConfig config;
    final RedisConnection redis;
    final TimerStore store;
    final Watermarks watermarks;
    private final KafkaClients clients;
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<AutoCloseable> started = new ArrayList<>();
    private TopicRecorder expired;

    TimerPipeline(String bootstrapServers, String redisUri, Map<String, String> overrides) {
        int run = RUN.incrementAndGet();
        Map<String, String> settings = new HashMap<>(Map.of(
                "kafka.bootstrap.servers", bootstrapServers, "redis.uri", redisUri,
                "redis.key-prefix", "pipeline-" + run, "topics.push", "push-" + run, "topics.pulled", "pulled-" + run,
                "topics.dlq", "dlq-" + run, "topics.expired", "expired-" + run, "topics.timer-shards", "shards-" + run,
                "timer.group-id", "timer-" + run, "ingest.group-id", "ingest-" + run));
        settings.put("topics.partitions", "3");
        settings.putAll(overrides);
        config = LapseConfig.load(null, Map.of()).with(settings);
        redis = RedisConnection.open(config.redis());
        TimerKeys keys = new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        store = TimerStore.of(redis, keys, config.timer());
        watermarks = new Watermarks(redis, keys);
        new RedisEpochs(redis, keys).stamp("timer-test").join(); // no compensator here to vouch for the empty Redis
        clients = new KafkaClients(config.kafka());
        new TopicProvisioner(clients).ensure(Set.of(config.topics().push(), config.topics().pulled(),
                config.topics().dlq(), config.topics().expired()));
        producer = clients.producer("test-pushes", Map.of());
    }

    IngestService startIngest() {
        IngestService ingest = new IngestService(config, clients, store, watermarks, new SimpleMeterRegistry(),
                Clock.systemUTC());
        return started(ingest);
    }

    Service startTimer() {
        Service timer = config.timer().mode() == TimerMode.ZSET
                ? new TimerService(config, clients, redis, (RedisTimerStore) store, watermarks,
                new SimpleMeterRegistry(), Clock.systemUTC())
                : new KeyspaceTimerService(config, clients, redis, (TtlTimerStore) store, watermarks,
                new SimpleMeterRegistry(), Clock.systemUTC());
        return started(timer);
    }

    private <S extends Service> S started(S service) {
        service.start();
        started.add(service);
        return service;
    }

    /** A status push with ts = now, to the partition given (or the producer's choice when null). */
    void push(String orderId, Integer partition) {
        StatusPush push = new StatusPush(orderId, "CHARGING", System.currentTimeMillis());
        producer.send(new ProducerRecord<>(config.topics().push(), partition,
                orderId.getBytes(StandardCharsets.UTF_8), JsonCodec.STATUS_PUSH.encode(push)));
    }

    void flush() {
        producer.flush();
    }

    List<TimerExpired> expiries() {
        if (expired == null) {
            expired = TopicRecorder.start(config.kafka().bootstrapServers(), config.topics().expired());
        }
        return expired.values(JsonCodec.TIMER_EXPIRED::decode);
    }

    @Override
    public void close() throws Exception {
        Collections.reverse(started);
        for (AutoCloseable service : started) {
            service.close();
        }
        if (expired != null) {
            expired.close();
        }
        producer.close();
        redis.close();
    }
}
