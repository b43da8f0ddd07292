package io.lapse.store;

import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.store.internal.LuaScript;
import io.lapse.store.internal.PerShard;
import io.lapse.store.internal.StateRecord;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The key-with-TTL timer store (timer.mode=ttl): one key per watched order that expires at its deadline, fired by
 * Redis's keyspace notifications. Those arrive only when Redis gets round to deleting the key (seconds to minutes
 * late with many keys) and are lost when no subscriber listens; the mode exists for comparison and for users who
 * want it. See ttl-arm.lua for the data layout.
 */
public final class TtlTimerStore implements TimerStore {

    /** After a notification that the watermark held back, the trigger is set again to expire this much later. */
    static final long WATERMARK_RETRY_MS = 50;

    private static final LuaScript ARM = LuaScript.named("ttl-arm");
    private static final LuaScript FIRE = LuaScript.named("ttl-fire");
    private static final LuaScript ACK = LuaScript.named("ttl-ack");
    private static final LuaScript RECOVER = LuaScript.named("ttl-recover");
    private static final LuaScript PRUNE = LuaScript.named("prune");

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;
    private final TimerSettings settings;

    public TtlTimerStore(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        this.redis = connection.async();
        this.keys = keys;
        this.settings = settings;
    }

    @Override
    public TimerKeys keys() {
        return keys;
    }

    @Override
    public CompletableFuture<ApplyResult> apply(Collection<OrderUpdate> updates) {
        String ttl = Long.toString(settings.ttl().toMillis());
        return PerShard.call(keys, PerShard.newestPerOrder(updates, OrderUpdate::orderId, OrderUpdate::mergeWith),
                OrderUpdate::orderId, (shard, chunk) -> {
                    List<String> args = new ArrayList<>(2 + chunk.size() * 3);
                    args.add(ttl);
                    args.add(keys.triggerPrefix(shard));
                    for (OrderUpdate u : chunk) {
                        args.add(u.orderId());
                        args.add(Long.toString(u.eventTime()));
                        args.add(u.kind().code);
                    }
                    return ARM.<List<Long>>run(redis, ScriptOutputType.MULTI,
                                    new String[]{keys.state(shard), keys.ended(shard)}, args.toArray(String[]::new))
                            .thenApply(r -> new ApplyResult(r.get(0), r.get(1), r.get(2)));
                }).thenApply(results -> results.stream().reduce(ApplyResult.NONE, ApplyResult::plus));
    }

    /** Claims, with a lease, the orders whose trigger keys Redis announced as expired. */
    public CompletableFuture<List<Claim>> fire(int shard, Collection<String> orderIds, long watermark) {
        List<String> args = new ArrayList<>(5 + orderIds.size());
        args.add(keys.triggerPrefix(shard));
        args.add(Long.toString(watermark));
        args.add(Long.toString(settings.lease().toMillis()));
        args.add(Integer.toString(settings.maxAttempts()));
        args.add(Long.toString(WATERMARK_RETRY_MS));
        args.addAll(orderIds);
        return FIRE.<List<Object>>run(redis, ScriptOutputType.MULTI, new String[]{keys.state(shard), keys.epoch(shard)},
                args.toArray(String[]::new)).thenApply(this::toClaims);
    }

    private List<Claim> toClaims(List<Object> reply) {
        long now = Long.parseLong((String) reply.get(0));
        List<?> flat = (List<?>) reply.get(1);
        List<Claim> claims = new ArrayList<>(flat.size() / 5);
        for (int i = 0; i < flat.size(); i += 5) {
            int attempt = Integer.parseInt((String) flat.get(i + 2));
            TimerExpired.Source source = "c".equals(flat.get(i + 4))
                    ? TimerExpired.Source.COMPENSATOR : TimerExpired.Source.KEYSPACE;
            claims.add(new Claim((String) flat.get(i), Long.parseLong((String) flat.get(i + 1)), attempt,
                    Long.parseLong((String) flat.get(i + 3)), source, now, attempt >= settings.maxAttempts()));
        }
        return claims;
    }

    /** Marks expiries Kafka has accepted and sets each trigger for its next repeat. */
    public CompletableFuture<Long> acknowledge(int shard, List<Claim> claims) {
        List<String> args = new ArrayList<>(3 + claims.size() * 4);
        args.add(keys.triggerPrefix(shard));
        args.add(Long.toString(settings.repeat().toMillis()));
        args.add(Integer.toString(settings.maxAttempts()));
        for (Claim c : claims) {
            args.add(c.orderId());
            args.add(Integer.toString(c.attempt()));
            args.add(Long.toString(c.deadline()));
            args.add(Long.toString(c.firedAt()));
        }
        return ACK.run(redis, ScriptOutputType.INTEGER, new String[]{keys.state(shard), keys.ended(shard)},
                args.toArray(String[]::new));
    }

    @Override
    public CompletableFuture<Map<String, OrderView>> inspect(Collection<String> orderIds) {
        return PerShard.call(keys, new ArrayList<>(orderIds), Function.identity(), (shard, chunk) ->
                        redis.hmget(keys.state(shard), chunk.toArray(String[]::new)).toCompletableFuture()
                                .thenApply(values -> values.stream().map(kv -> StateRecord.view(kv.getKey(),
                                        kv.getValueOrElse(null), null, settings.ttl().toMillis())).toList()))
                .thenApply(lists -> lists.stream().flatMap(List::stream)
                        .collect(Collectors.toMap(OrderView::orderId, v -> v, (a, b) -> a, LinkedHashMap::new)));
    }

    @Override
    public CompletableFuture<List<String>> recover(Map<String, Long> lastSeenByOrder) {
        String ttl = Long.toString(settings.ttl().toMillis());
        return PerShard.call(keys, new ArrayList<>(lastSeenByOrder.keySet()), Function.identity(), (shard, chunk) -> {
            List<String> args = new ArrayList<>(2 + chunk.size() * 2);
            args.add(ttl);
            args.add(keys.triggerPrefix(shard));
            for (String id : chunk) {
                args.add(id);
                args.add(Long.toString(lastSeenByOrder.get(id)));
            }
            return RECOVER.<List<String>>run(redis, ScriptOutputType.MULTI, new String[]{keys.state(shard)},
                    args.toArray(String[]::new));
        }).thenApply(lists -> lists.stream().flatMap(List::stream).toList());
    }

    /** Watched orders: entries of the state hashes less the finished and given-up ones, and the table keepers. */
    @Override
    public CompletableFuture<Long> watchedCount() {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.hlen(keys.state(shard)).toCompletableFuture());
            counts.add(redis.zcard(keys.ended(shard)).toCompletableFuture().thenApply(n -> -n));
            counts.add(redis.hexists(keys.state(shard), TimerKeys.TABLE_KEEPER).toCompletableFuture()
                    .thenApply(kept -> kept ? -1L : 0L));
        }
        return CompletableFuture.allOf(counts.toArray(CompletableFuture[]::new))
                .thenApply(v -> counts.stream().mapToLong(CompletableFuture::join).sum());
    }

    @Override
    public CompletableFuture<Long> prune(int shard, int limit) {
        return PRUNE.run(redis, ScriptOutputType.INTEGER, new String[]{keys.state(shard), keys.ended(shard)},
                Long.toString(settings.tombstoneRetention().toMillis()), Integer.toString(limit));
    }
}
