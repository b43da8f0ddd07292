package io.lapse.store;

import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.store.internal.LuaTimerStore;
import io.lapse.store.internal.WakeSubscription;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * timer.mode=zset: one sorted set of deadlines per shard, claimed with a lease; ingest's arm script wakes the timer
 * when it arms a deadline earlier than the shard's earliest. See the scripts in {@code /io/lapse/store/}.
 */
public final class ZsetTimerStore extends LuaTimerStore {

    public ZsetTimerStore(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        super(connection, keys, settings, "claim", TimerExpired.Source.TIMER);
    }

    @Override
    protected String triggerPrefix(int shard) {
        return "";
    }

    @Override
    public AutoCloseable listen(IntConsumer shardMayBeDue) {
        return new WakeSubscription(connection, keys.wakeChannel(), shardMayBeDue);
    }

    @Override
    public CompletableFuture<Long> watchedCount() {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.zcard(keys.due(shard)).toCompletableFuture());
        }
        return sum(counts);
    }
}
