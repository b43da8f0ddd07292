package io.lapse.store.oncall;

import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What on-call did by hand (lapse fire, lapse cancel), in a capped Redis stream, so that {@code lapse inspect} can
 * tell who acted on an order, when and why. The newest entries are kept; the cap bounds what inspect reads.
 */
public final class AuditLog {

    /** @param at Redis's clock when the entry was written (ms); 0 for an entry not yet written */
    public record Entry(long at, String action, String orderId, String reason, String user) {}

    static final int CAPACITY = 10_000;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final String key;

    public AuditLog(RedisConnection connection, TimerKeys keys) {
        this.redis = connection.async();
        this.key = keys.audit();
    }

    public CompletableFuture<Void> record(Entry entry) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("action", entry.action());
        fields.put("orderId", entry.orderId());
        fields.put("reason", entry.reason() == null ? "" : entry.reason());
        fields.put("user", entry.user() == null ? "" : entry.user());
        return redis.xadd(key, XAddArgs.Builder.maxlen(CAPACITY).approximateTrimming(), fields)
                .toCompletableFuture()
                .thenApply(id -> null);
    }

    /** The order's entries, newest first. */
    public CompletableFuture<List<Entry>> of(String orderId) {
        return redis.xrevrange(key, Range.create("-", "+"), Limit.from(CAPACITY))
                .toCompletableFuture()
                .thenApply(messages -> messages.stream()
                        .filter(m -> orderId.equals(m.getBody().get("orderId")))
                        .map(AuditLog::entry)
                        .toList());
    }

    /** Everybody's entries, newest first, at most {@code limit} of them. */
    public CompletableFuture<List<Entry>> newest(int limit) {
        return redis.xrevrange(key, Range.create("-", "+"), Limit.from(Math.max(1, Math.min(limit, CAPACITY))))
                .toCompletableFuture()
                .thenApply(messages -> messages.stream().map(AuditLog::entry).toList());
    }

    private static Entry entry(StreamMessage<String, String> message) {
        Map<String, String> body = message.getBody();
        long at = Long.parseLong(message.getId().substring(0, message.getId().indexOf('-')));
        return new Entry(at, body.get("action"), body.get("orderId"), body.get("reason"), body.get("user"));
    }
}
