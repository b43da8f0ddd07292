package io.lapse.store.timers;

import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/** When orders ended or were given up: the time their tombstone counts from until it is pruned. */
public final class EndedOrders {

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;

    public EndedOrders(RedisConnection connection, TimerKeys keys) {
        this.redis = connection.async();
        this.keys = keys;
    }

    /** Redis's clock when the order ended or was given up; empty when it did neither, or was pruned since. */
    public CompletableFuture<OptionalLong> endedAt(String orderId) {
        return redis.zscore(keys.ended(keys.shardOf(orderId)), orderId)
                .toCompletableFuture()
                .thenApply(score -> score == null ? OptionalLong.empty() : OptionalLong.of(score.longValue()));
    }
}
