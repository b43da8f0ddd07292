package io.lapse.timer;

import io.lapse.config.LapseConfig;
import io.lapse.event.StatusReader;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.Service;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.store.Listening;
import io.lapse.store.ServiceContext;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
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

    /** The settings of the timer's expiry producer beside Lapse's defaults (the benchmark's baseline uses them too). */
    public static final Map<String, Object> PRODUCER_SETTINGS = ExpiryPublisher.PRODUCER_SETTINGS;

    private final ShardOwnership ownership;
    private final Supplier<Listening> listen;
    private final ServiceLoop loop;
    private volatile Listening listening;
    private boolean closed;

    private TimerService(ShardOwnership ownership, Supplier<Listening> listen, ServiceLoop loop) {
        this.ownership = ownership;
        this.listen = listen;
        this.loop = loop;
    }

    /**
     * Assembles the rounds on the topics the runtime created (the shard topic with exactly timer.shards partitions)
     * and joins nothing yet; {@link #start} listens for due shards and runs the rounds.
     */
    public static TimerService build(ServiceContext context) {
        LapseConfig config = context.config();
        KafkaClients clients = context.clients();
        MeterRegistry registry = context.registry();
        KafkaProducer<byte[], byte[]> producer = clients.producer("lapse-timer", PRODUCER_SETTINGS);
        // the rounds sleep on it; an ownership change ends their sleep, and the round that follows sees the change
        Wakeup wakeup = new Wakeup();
        ShardOwnership ownership = new ShardOwnership(
                clients.member(
                        config.timer().groupId(),
                        "lapse-timer-" + UUID.randomUUID(),
                        Map.of(
                                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                                CooperativeStickyAssignor.class.getName())),
                config.topics().timerShards(),
                config.timer().shards(),
                wakeup::signal);
        TimerRounds rounds = new TimerRounds(
                context.store(),
                context.watermarks(),
                context.epochs(),
                new ExpiryPublisher(producer, config.topics().expired(), context.clock(), registry),
                config.timer().batchSize(),
                ownership::owned,
                wakeup,
                context.store().claimsPastUnread() ? standIn(context) : null);
        WatermarkGauge.register(registry, rounds::watermarkAge);
        Gauge.builder(MetricNames.TIMER_SHARDS_OWNED, ownership, o -> o.owned().size())
                .description("Timer shards this instance serves")
                .register(registry);
        // beside the owned ones, so that an alert can tell shards no timer serves: sum(owned) < shards
        Gauge.builder("lapse.timer.shards", config.timer(), t -> t.shards())
                .description("Timer shards in all (timer.shards)")
                .register(registry);
        return new TimerService(
                ownership,
                () -> context.store().listen(rounds::wake),
                new ServiceLoop("lapse-timer", rounds::next, rounds::wakeAll, rounds::close));
    }

    /** Reads what an absent ingest has not, with a consumer of no group and an admin client of its own. */
    private static IngestStandIn standIn(ServiceContext context) {
        LapseConfig config = context.config();
        return new IngestStandIn(new UnreadRecords(
                context.clients().admin(),
                context.clients().consumer(null, "lapse-timer-stand-in", Map.of()),
                config.ingest().groupId(),
                config.topics().push(),
                config.topics().pulled(),
                new StatusReader(config.timer()),
                context.store().keys(),
                config.timer().watermarkSlack(),
                config.timer().ttl()));
    }

    @Override
    public String name() {
        return ServiceName.TIMER.command();
    }

    @Override
    public synchronized void start() {
        listening = listen.get();
        ownership.start();
        loop.start();
    }

    /** The shards this instance serves now. */
    public Set<Integer> ownedShards() {
        return ownership.owned();
    }

    @Override
    public Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop, ownership.loop());
    }

    @Override
    public boolean isReady() {
        return loop.isHealthy() && ownership.isHealthy() && unreadyReason().isEmpty();
    }

    /** Why the timer is not ready though it runs: in ttl mode, Redis announces no expired keys. */
    public Optional<String> unreadyReason() {
        Listening heard = listening;
        return heard == null ? Optional.of("not started") : heard.problem();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ownership.close();
        loop.close();
        try {
            if (listening != null) {
                listening.close();
            }
        } catch (Exception e) {
            log.warn("could not stop listening for due shards: {}", e.toString());
        }
    }
}
