package io.lapse.bench;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.puller.PullerService;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.TimerStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.time.Clock;
import java.util.concurrent.TimeUnit;

/** The puller as the app wires it, with a Redis connection of its own; closing stops it and then the connection. */
final class BenchPuller implements AutoCloseable {

    private final RedisConnection redis;
    private final PullerService puller;
    private final MeterRegistry registry = new SimpleMeterRegistry();

    private BenchPuller(LapseConfig config) {
        redis = RedisConnection.open(config.redis());
        TimerStore store = TimerStore.of(redis, new TimerKeys(config.redis().keyPrefix(), config.timer().shards()),
                config.timer());
        puller = new PullerService(config, new KafkaClients(config.kafka()), store, registry, Clock.systemUTC());
    }

    static BenchPuller start(LapseConfig config) {
        BenchPuller started = new BenchPuller(config);
        started.puller.start();
        return started;
    }

    /** Mean time of one upstream request, as the puller saw it. */
    double requestMillis() {
        return registry.get("lapse.puller.request").timer().mean(TimeUnit.MILLISECONDS);
    }

    /** Mean wait of a request for its rate permit. */
    double permitWaitMillis() {
        return registry.get("lapse.puller.rate.limit.wait").timer().mean(TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            puller.close();
        } finally {
            redis.close();
        }
    }
}
