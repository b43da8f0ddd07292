package io.lapse.timer;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.Listening;
import io.lapse.store.RedisEpochs;
import io.lapse.store.TimerStore;
import io.lapse.store.Watermarks;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires expiries, in either timer.mode: serves the shards the timer consumer group gives this instance, claiming due
 * orders with a lease, publishing TimerExpired (idempotent producer, acks=all) and acknowledging in Redis only after
 * Kafka did. The store tells it when a shard may hold something due earlier than it expects.
 */
public final class TimerService implements Service {

    private static final Logger log = LoggerFactory.getLogger(TimerService.class);

    private final LapseConfig config;
    private final KafkaClients clients;
    private final TimerStore store;
    private final Watermarks watermarks;
    private final RedisEpochs epochs;
    private final MeterRegistry registry;
    private final Clock clock;
    private ShardOwnership ownership;
    private Listening listening;
    private ServiceLoop loop;
    private boolean closed;

    public TimerService(
            LapseConfig config,
            KafkaClients clients,
            TimerStore store,
            Watermarks watermarks,
            RedisEpochs epochs,
            MeterRegistry registry,
            Clock clock) {
        this.config = config;
        this.clients = clients;
        this.store = store;
        this.watermarks = watermarks;
        this.epochs = epochs;
        this.registry = registry;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "timer";
    }

    @Override
    public synchronized void start() {
        TopicProvisioner topics = new TopicProvisioner(clients);
        topics.ensure(Set.of(config.topics().expired()));
        topics.ensureExactly(config.topics().timerShards(), config.timer().shards());
        KafkaProducer<byte[], byte[]> producer = clients.producer("lapse-timer", ExpiryPublisher.PRODUCER_SETTINGS);
        // the rounds sleep on it; an ownership change ends their sleep, and the round that follows sees the change
        Wakeup wakeup = new Wakeup();
        ownership = new ShardOwnership(
                clients.member(
                        config.timer().groupId(),
                        "lapse-timer-" + UUID.randomUUID(),
                        Map.of(
                                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                                CooperativeStickyAssignor.class.getName())),
                config.topics().timerShards(),
                wakeup::signal);
        TimerRounds rounds = new TimerRounds(
                store,
                watermarks,
                epochs,
                new ExpiryPublisher(producer, config.topics().expired(), clock, registry),
                config.timer().batchSize(),
                ownership::owned,
                wakeup);
        listening = store.listen(rounds::wake);
        WatermarkGauge.register(registry, rounds::watermarkAge);
        Gauge.builder("lapse.timer.shards.owned", ownership, o -> o.owned().size())
                .description("Timer shards this instance serves")
                .register(registry);
        // beside the owned ones, so that an alert can tell shards no timer serves: sum(owned) < shards
        Gauge.builder("lapse.timer.shards", config.timer(), t -> t.shards())
                .description("Timer shards in all (timer.shards)")
                .register(registry);
        loop = new ServiceLoop("lapse-timer", rounds::next, rounds::wakeAll, rounds::close);
        ownership.start();
        loop.start();
    }

    /** The shards this instance serves now. */
    public Set<Integer> ownedShards() {
        return ownership == null ? Set.of() : ownership.owned();
    }

    @Override
    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop, ownership == null ? null : ownership.loop());
    }

    @Override
    public boolean isReady() {
        return loop != null
                && loop.isHealthy()
                && ownership.isHealthy()
                && unreadyReason().isEmpty();
    }

    /** Why the timer is not ready though it runs: in ttl mode, Redis announces no expired keys. */
    public Optional<String> unreadyReason() {
        return listening == null ? Optional.empty() : listening.problem();
    }

    @Override
    public synchronized void close() {
        if (loop == null || closed) {
            return;
        }
        closed = true;
        ownership.close();
        loop.close();
        try {
            listening.close();
        } catch (Exception e) {
            log.warn("could not stop listening for due shards: {}", e.toString());
        }
    }
}
