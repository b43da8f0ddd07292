package io.lapse.runtime;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.Service;
import io.lapse.store.RedisConnection;
import io.lapse.store.RedisTimerStore;
import io.lapse.store.TimerStore;
import io.lapse.store.TtlTimerStore;
import io.lapse.store.Watermarks;
import io.lapse.timer.KeyspaceTimerService;
import io.lapse.timer.TimerService;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Clock;

/** The one place that tells the two timer modes apart: which timer service fires the deadlines of the store. */
final class TimerWiring {

    private TimerWiring() {
    }

    static Service timer(LapseConfig config, KafkaClients clients, RedisConnection redis, TimerStore store,
                         Watermarks watermarks, MeterRegistry registry, Clock clock) {
        return store instanceof TtlTimerStore ttl
                ? new KeyspaceTimerService(config, clients, redis, ttl, watermarks, registry, clock)
                : new TimerService(config, clients, redis, (RedisTimerStore) store, watermarks, registry, clock);
    }
}
