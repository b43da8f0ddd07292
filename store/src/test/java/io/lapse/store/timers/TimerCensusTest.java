package io.lapse.store.timers;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigSource;
import io.lapse.config.LapseConfig;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.store.RedisConnectionExtension;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.watermarks.Watermarks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TimerCensusTest {

    private static final long TTL = 10_000;
    private static final long NOW = 1_800_000_000_000L;

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    @Test
    void countsWatchedOrdersAndThoseMoreThanTheGracePastTheirDeadline() {
        TimerSettings settings =
                TimerSettings.from(ConfigSource.defaults().with(Map.of("timer.ttl", TTL + "ms", "timer.shards", "4")));
        TimerKeys keys = new TimerKeys("census", settings.shards());
        TimerStore store = TimerStore.of(redis.connection(), keys, settings);
        TimerCensus census = census(store, keys);
        store.apply(List.of(
                        OrderUpdate.active("late-a", NOW - TTL - 60_000),
                        OrderUpdate.active("late-b", NOW - TTL - 5_000),
                        OrderUpdate.active("firing-now", NOW - TTL - 200),
                        OrderUpdate.active("on-time", NOW),
                        OrderUpdate.terminal("ended", NOW - TTL - 60_000)))
                .join();

        TimerCounts counts = census.counts(NOW).join();

        assertThat(counts.watched()).isEqualTo(4);
        assertThat(counts.overdue()).as("within the grace is not overdue").isEqualTo(2);
        assertThat(counts.oldestDeadline()).isEqualTo(NOW - 60_000);
    }

    @Test
    void noOverdueOrderMeansNoOldestDeadline() {
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults().with(Map.of("timer.ttl", TTL + "ms")));
        TimerKeys keys = new TimerKeys("census-none", settings.shards());
        TimerStore store = TimerStore.of(redis.connection(), keys, settings);
        store.apply(List.of(OrderUpdate.active("on-time", NOW))).join();

        TimerCounts counts = census(store, keys).counts(NOW).join();

        assertThat(counts).isEqualTo(new TimerCounts(1, 0L, null, settings.shards()));
    }

    @Test
    void countsTheShardsWithoutAnEpoch() {
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults().with(Map.of("timer.shards", "4")));
        TimerKeys keys = new TimerKeys("census-epochs", settings.shards());
        TimerStore store = TimerStore.of(redis.connection(), keys, settings);
        new RedisEpochs(redis.connection(), keys).stamp("rebuilt").join();
        redis.connection()
                .async()
                .del(keys.epoch(1), keys.epoch(3))
                .toCompletableFuture()
                .join();

        TimerCounts counts = census(store, keys).counts(NOW).join();

        assertThat(counts.shardsWithoutEpoch()).isEqualTo(2);
    }

    private TimerCensus census(TimerStore store, TimerKeys keys) {
        return new TimerCensus(
                store,
                Watermarks.of(redis.connection(), keys, LapseConfig.load(null, Map.of())),
                new RedisEpochs(redis.connection(), keys));
    }
}
