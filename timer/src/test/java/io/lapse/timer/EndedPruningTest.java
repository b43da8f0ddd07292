package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigSource;
import io.lapse.config.RedisSettings;
import io.lapse.config.TimerSettings;
import io.lapse.devstack.DevStackExtension;
import io.lapse.event.OrderUpdate;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.TimerStore;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("slow")
class EndedPruningTest {

    @RegisterExtension
    static final DevStackExtension redis = DevStackExtension.redisOnly();

    private RedisConnection connection;
    private TimerStore store;

    @BeforeEach
    void oneShardWhoseTombstonesExpireAtOnce() {
        connection = RedisConnection.open(new RedisSettings(redis.redisUri(), false, "lapse"));
        connection.async().flushall().toCompletableFuture().join();
        TimerSettings settings = TimerSettings.from(
                ConfigSource.defaults().with(Map.of("timer.shards", "1", "timer.tombstone-retention", "1ms")));
        TimerKeys keys = new TimerKeys("lapse", settings.shards());
        store = TimerStore.of(connection, keys, settings);
        new RedisEpochs(connection, keys).stamp("test").join();
    }

    @AfterEach
    void close() {
        connection.close();
    }

    @Test
    void oneRoundForgetsMoreOrdersThanOneBatchHolds() throws Exception {
        end(EndedPruning.BATCH * 2 + 500);

        assertThat(new EndedPruning(store).round(Set.of(0))).isEqualTo(EndedPruning.BATCH * 2 + 500);
    }

    @Test
    void aBacklogLargerThanOneRoundIsForgottenByTheRoundsAfter() throws Exception {
        int rounds = EndedPruning.BATCH * EndedPruning.BATCHES_PER_ROUND;
        end(rounds + 500);
        EndedPruning pruning = new EndedPruning(store);

        assertThat(pruning.round(Set.of(0))).isEqualTo(rounds);
        assertThat(pruning.round(Set.of(0))).isEqualTo(500);
        assertThat(pruning.round(Set.of(0))).isZero();
    }

    private void end(int orders) throws InterruptedException {
        long ts = System.currentTimeMillis() - 1_000;
        List<OrderUpdate> terminal = IntStream.range(0, orders)
                .mapToObj(i -> OrderUpdate.terminal("order-" + i, ts))
                .toList();
        for (int from = 0; from < orders; from += 1_000) {
            store.apply(terminal.subList(from, Math.min(orders, from + 1_000))).join();
        }
        // the tombstones' retention (1 ms) must pass on Redis's clock
        Thread.sleep(5);
    }
}
