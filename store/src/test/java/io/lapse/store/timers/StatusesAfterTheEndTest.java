package io.lapse.store.timers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.store.RedisConnectionExtension;
import io.lapse.store.TimerKeys;
import io.lapse.store.epochs.RedisEpochs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 41: a finished order whose producer pushes on keeps its mark for {@code timer.tombstone-retention} from the
 * newest status heard, not from its end, so the timer's pruning never lets a later push watch it again; once it stops
 * pushing, the mark is forgotten a retention later. Both timer modes, on a real Redis.
 */
@Tag("slow")
class StatusesAfterTheEndTest {

    private static final Duration RETENTION = Duration.ofSeconds(1);
    private static final String ORDER = "order-41";

    @RegisterExtension
    static final RedisConnectionExtension redis = new RedisConnectionExtension();

    private static TimerStore store(String mode) {
        redis.connection().async().flushall().toCompletableFuture().join();
        TimerSettings settings = TimerSettings.from(ConfigSource.defaults()
                .with(Map.of(
                        "timer.ttl",
                        "10s",
                        "timer.mode",
                        mode,
                        "timer.tombstone-retention",
                        RETENTION.toMillis() + "ms")));
        TimerStore store = TimerStore.of(redis.connection(), new TimerKeys("after-end", settings.shards()), settings);
        new RedisEpochs(redis.connection(), store.keys()).stamp("after-end").join();
        return store;
    }

    private static OrderView.Phase phase(TimerStore store) {
        return store.inspect(List.of(ORDER)).join().get(ORDER).phase();
    }

    private static long prune(TimerStore store) {
        return store.prune(store.keys().shardOf(ORDER), 100).join();
    }

    @ParameterizedTest
    @ValueSource(strings = {"zset", "ttl"})
    void aFinishedOrderPushingOnKeepsItsMarkForTheRetentionFromItsNewestStatus(String mode) {
        TimerStore store = store(mode);
        long ended = System.currentTimeMillis();
        store.apply(List.of(OrderUpdate.active(ORDER, ended - 1_000), OrderUpdate.terminal(ORDER, ended)))
                .join();
        // the producer pushes on, 2 s after the end by its clock
        store.apply(List.of(OrderUpdate.active(ORDER, ended + 2_000))).join();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> System.currentTimeMillis() > ended + RETENTION.toMillis() + 500);
        assertThat(prune(store)).as("marks pruned a retention after the end").isZero();
        store.apply(List.of(OrderUpdate.active(ORDER, System.currentTimeMillis())))
                .join();
        assertThat(phase(store))
                .as("the order after a push past the retention from its end")
                .isEqualTo(OrderView.Phase.ENDED);

        // it stops pushing: the mark goes a retention after its newest status
        await().atMost(Duration.ofSeconds(10)).until(() -> prune(store) == 1);
        assertThat(phase(store)).isEqualTo(OrderView.Phase.UNKNOWN);
    }
}
