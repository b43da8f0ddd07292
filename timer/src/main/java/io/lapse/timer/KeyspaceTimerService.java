package io.lapse.timer;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.RedisConnection;
import io.lapse.store.TtlTimerStore;
import io.lapse.store.Watermarks;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;

import java.time.Clock;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The timer of timer.mode=ttl: fires expiries when Redis announces that an order's trigger key expired. Redis
 * announces it only when it deletes the key, which with many keys is seconds to minutes late, and Pub/Sub drops
 * what no one hears: the compensator repairs what is lost. Kept for comparison with the sorted-set timer.
 */
public final class KeyspaceTimerService implements Service {

    private final LapseConfig config;
    private final KafkaClients clients;
    private final RedisConnection redis;
    private final TtlTimerStore store;
    private final Watermarks watermarks;
    private final MeterRegistry registry;
    private final Clock clock;
    private KeyspaceNotifications notifications;
    private ServiceLoop loop;

    public KeyspaceTimerService(LapseConfig config, KafkaClients clients, RedisConnection redis, TtlTimerStore store,
                                Watermarks watermarks, MeterRegistry registry, Clock clock) {
        this.config = config;
        this.clients = clients;
        this.redis = redis;
        this.store = store;
        this.watermarks = watermarks;
        this.registry = registry;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "timer";
    }

    @Override
    public synchronized void start() {
        new TopicProvisioner(clients).ensure(Set.of(config.topics().expired()));
        KafkaProducer<byte[], byte[]> producer = clients.producer("lapse-timer", ExpiryPublisher.PRODUCER_SETTINGS);
        LinkedBlockingQueue<String> expiredKeys = new LinkedBlockingQueue<>();
        notifications = new KeyspaceNotifications(redis, expiredKeys::add);
        KeyspaceRounds rounds = new KeyspaceRounds(store, watermarks,
                new ExpiryPublisher(producer, config.topics().expired(), clock, registry), notifications, expiredKeys);
        WatermarkGauge.register(registry, rounds::watermarkAge);
        Gauge.builder("lapse.timer.notifications.queued", expiredKeys, LinkedBlockingQueue::size)
                .description("Expired-key notifications waiting to be fired").register(registry);
        // an empty key names no order: it only cuts the round's wait short at close
        loop = new ServiceLoop("lapse-timer-keyspace", rounds::next, () -> expiredKeys.add(""), rounds::close);
        loop.start();
    }

    @Override
    public boolean isReady() {
        return loop != null && loop.isHealthy();
    }

    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.close();
            notifications.close();
        }
    }
}
