package io.lapse.store.timers;

import io.lapse.config.TimerSettings;
import io.lapse.internal.Futures;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.RedisTime;
import io.lapse.store.timers.internal.LuaTimerStore;
import io.lapse.store.timers.internal.Mode;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Counts each shard's watched timers and those overdue (deadline further in the past than a grace, not fired), for
 * {@code lapse status}. Read command by command, not in one snapshot: a census, not a transaction.
 */
public final class ShardCensus {

    /** An overdue timer: the order and the deadline it has not fired at. */
    public record OverdueOrder(String orderId, long deadline) {}

    /**
     * @param oldest the longest overdue timer, or null when none is
     * @param epoch  the compensator's epoch marker of the shard, or null when there is none
     * @param rebuiltUpTo while the shard has no epoch, the moment (ms) up to which a rebuild under way declared it
     *                    written, so that its orders due by then fire; null when none did
     */
    public record ShardCount(
            int shard, long watched, long overdue, OverdueOrder oldest, String epoch, Long rebuiltUpTo) {}

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;
    private final Mode mode;

    public ShardCensus(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        this.redis = connection.async();
        this.keys = keys;
        this.mode = LuaTimerStore.of(connection, keys, settings).mode();
    }

    /** Redis's clock in ms, the clock deadlines are compared with. */
    public CompletableFuture<Long> redisNow() {
        return RedisTime.now(redis);
    }

    public CompletableFuture<List<ShardCount>> count(long now, Duration grace) {
        long limit = now - grace.toMillis();
        List<CompletableFuture<ShardCount>> shards = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            shards.add(count(shard, limit));
        }
        return Futures.allOf(shards);
    }

    private CompletableFuture<ShardCount> count(int shard, long limit) {
        var tally = mode.census(shard, limit);
        var epoch = redis.get(keys.epoch(shard)).toCompletableFuture();
        var horizon = redis.get(keys.epochHorizon(shard)).toCompletableFuture();
        return CompletableFuture.allOf(tally, epoch, horizon)
                .thenApply(v -> new ShardCount(
                        shard,
                        tally.join().watched(),
                        tally.join().overdue(),
                        tally.join().oldest(),
                        epoch.join(),
                        horizon.join() == null ? null : Long.valueOf(horizon.join())));
    }
}
