package io.lapse.store;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.ClusterLayout;
import io.lapse.kafka.KafkaClients;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.TimerStore;
import io.lapse.store.watermarks.Watermarks;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;

/**
 * What the services of one process share: the configuration, the Kafka clients' factory and what the process learnt
 * of the cluster (its id, its topics' partitions: the runtime created every topic of its services before), the Redis
 * connection and the timer store, watermarks and epochs on it, the metrics registry and the clock. Each service's
 * {@code build} takes it and assembles everything the service needs without a network call (no topic, no connection,
 * no question to the cluster), and returns a service that {@code start()} sets running.
 */
public record ServiceContext(
        LapseConfig config,
        KafkaClients clients,
        ClusterLayout cluster,
        RedisConnection redis,
        TimerStore store,
        Watermarks watermarks,
        RedisEpochs epochs,
        MeterRegistry registry,
        Clock clock) {

    /** The timer store of the configured mode, and the watermarks and epochs of the configured key prefix. */
    public static ServiceContext of(
            LapseConfig config,
            KafkaClients clients,
            ClusterLayout cluster,
            RedisConnection redis,
            MeterRegistry registry,
            Clock clock) {
        TimerKeys keys =
                new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
        return new ServiceContext(
                config,
                clients,
                cluster,
                redis,
                TimerStore.of(redis, keys, config.timer()),
                Watermarks.of(redis, keys, config),
                new RedisEpochs(redis, keys),
                registry,
                clock);
    }

    public TimerKeys keys() {
        return store.keys();
    }
}
