package io.lapse.store;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * How far ingest has read, per source partition: the event time it has consumed up to, or the time it last found the
 * partition fully read. The lowest of them is the watermark: no deadline after it may fire, because a status for that
 * order could still be waiting unread in Kafka.
 */
public final class Watermarks {

    private final RedisClusterAsyncCommands<String, String> redis;
    private final String key;

    public Watermarks(RedisConnection connection, TimerKeys keys) {
        this.redis = connection.async();
        this.key = keys.watermarks();
    }

    /** @param byPartition "topic/partition" → watermark ms */
    public CompletableFuture<Void> report(Map<String, Long> byPartition) {
        if (byPartition.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        Map<String, String> fields = byPartition.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> Long.toString(e.getValue())));
        return redis.hset(key, fields).toCompletableFuture().thenApply(ignored -> null);
    }

    public CompletableFuture<Map<String, Long>> all() {
        return redis.hgetall(key).toCompletableFuture().thenApply(fields -> fields.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> Long.parseLong(e.getValue()))));
    }

    /** The lowest partition watermark; empty while ingest has reported none, in which case nothing may fire. */
    public CompletableFuture<OptionalLong> low() {
        return all().thenApply(marks -> marks.values().stream().mapToLong(Long::longValue).min());
    }

    /** Forgets partitions that no longer exist, e.g. after a topic was recreated with fewer partitions. */
    public CompletableFuture<Long> forget(String... partitions) {
        return redis.hdel(key, partitions).toCompletableFuture();
    }
}
