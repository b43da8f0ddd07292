package io.lapse.bench.harness;

import io.lapse.config.LapseConfig;
import io.lapse.lifecycle.ServiceName;
import io.lapse.metrics.MetricNames;
import io.lapse.runtime.LapseRuntime;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.micrometer.core.instrument.Gauge;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/** Lapse services in the benchmark's process, started through the runtime exactly as the launcher starts them. */
public final class BenchServices {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private BenchServices() {}

    /**
     * Returns once every service is ready and, with the timer, it serves every shard. A timer without a compensator
     * would wait for the compensator to vouch for the (empty) Redis: the benchmark vouches for it instead.
     */
    public static LapseRuntime start(LapseConfig config, Set<ServiceName> names) throws InterruptedException {
        LapseRuntime lapse = new LapseRuntime(config, Clock.systemUTC());
        try {
            if (names.contains(ServiceName.TIMER) && !names.contains(ServiceName.COMPENSATOR)) {
                try (RedisConnection redis = RedisConnection.open(config.redis())) {
                    new RedisEpochs(
                                    redis,
                                    new TimerKeys(
                                            config.redis().keyPrefix(),
                                            config.timer().shards()))
                            .stamp("bench")
                            .join();
                }
            }
            lapse.start(names);
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            while (!lapse.health().isReady()
                    || (names.contains(ServiceName.TIMER) && !servesEveryShard(lapse, config))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(names + " not ready within " + READY_TIMEOUT);
                }
                Thread.sleep(50);
            }
            return lapse;
        } catch (RuntimeException | InterruptedException e) {
            lapse.close();
            throw e;
        }
    }

    private static boolean servesEveryShard(LapseRuntime lapse, LapseConfig config) {
        Gauge owned = lapse.registry().find(MetricNames.TIMER_SHARDS_OWNED).gauge();
        return owned != null && owned.value() == config.timer().shards();
    }
}
