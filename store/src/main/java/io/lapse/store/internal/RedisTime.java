package io.lapse.store.internal;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.concurrent.CompletableFuture;

/** Redis's clock ({@code TIME}) in ms: the one clock deadlines are compared with, whatever the hosts say. */
public final class RedisTime {

    private RedisTime() {}

    public static CompletableFuture<Long> now(RedisClusterAsyncCommands<String, String> redis) {
        return redis.time()
                .toCompletableFuture()
                .thenApply(t -> Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000);
    }
}
