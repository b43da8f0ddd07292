package io.lapse.bench;

import io.lapse.config.LapseConfig;
import io.lapse.config.TimerMode;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.Service;
import io.lapse.store.RedisConnection;
import io.lapse.store.RedisEpochs;
import io.lapse.store.RedisTimerStore;
import io.lapse.store.TimerKeys;
import io.lapse.store.TimerStore;
import io.lapse.store.TtlTimerStore;
import io.lapse.store.Watermarks;
import io.lapse.timer.KeyspaceTimerService;
import io.lapse.timer.TimerService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Ingest and the timer of the configured mode, in this process, wired as the app wires them: one Redis connection
 * shared by store and watermarks. Closing stops the timer first, so that it never fires on an ingest that is gone.
 */
final class LapseServices implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final RedisConnection redis;
    private final TimerStore store;
    private final Service ingest;
    private final Service timer;
    private final MeterRegistry timerRegistry = new SimpleMeterRegistry();

    private LapseServices(LapseConfig config, KafkaClients clients) {
        redis = RedisConnection.open(config.redis());
        store = TimerStore.of(redis, new TimerKeys(config.redis().keyPrefix(), config.timer().shards()), config.timer());
        Watermarks watermarks = new Watermarks(redis, store.keys());
        new RedisEpochs(redis, store.keys()).stamp("bench").join(); // no compensator here to vouch for the empty Redis
        Clock clock = Clock.systemUTC();
        ingest = new IngestService(config, clients, store, watermarks, new SimpleMeterRegistry(), clock);
        timer = config.timer().mode() == TimerMode.ZSET
                ? new TimerService(config, clients, redis, (RedisTimerStore) store, watermarks, timerRegistry, clock)
                : new KeyspaceTimerService(config, clients, redis, (TtlTimerStore) store, watermarks, timerRegistry,
                clock);
    }

    /** Starts both and returns once the timer serves every shard (zset) or listens (ttl). */
    static LapseServices start(LapseConfig config, KafkaClients clients) throws InterruptedException {
        LapseServices services = new LapseServices(config, clients);
        try {
            services.ingest.start();
            services.timer.start();
            BooleanSupplier ready = services.timer instanceof TimerService zset
                    ? () -> zset.ownedShards().size() == config.timer().shards()
                    : services.timer::isReady;
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            while (!ready.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timer not ready within " + READY_TIMEOUT);
                }
                Thread.sleep(50);
            }
            return services;
        } catch (RuntimeException | InterruptedException e) {
            services.close();
            throw e;
        }
    }

    TimerStore store() {
        return store;
    }

    /** Where the timer registered its meters, e.g. lapse.timer.watermark.age. */
    MeterRegistry timerRegistry() {
        return timerRegistry;
    }

    @Override
    public void close() {
        try {
            timer.close();
        } finally {
            try {
                ingest.close();
            } finally {
                redis.close();
            }
        }
    }
}
