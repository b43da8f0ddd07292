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
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The sorted-set timer store (timer.mode=zset): one sorted set of deadlines per shard, claimed with a lease. See the
 * scripts in {@code /io/lapse/store/} for the data layout.
 */
public final class RedisTimerStore implements TimerStore {

    private static final LuaScript ARM = LuaScript.named("arm");
    private static final LuaScript CLAIM = LuaScript.named("claim");
    private static final LuaScript ACK = LuaScript.named("ack");
    private static final LuaScript PRUNE = LuaScript.named("prune");
    private static final LuaScript INSPECT = LuaScript.named("inspect");
    private static final LuaScript RECOVER = LuaScript.named("recover");

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;
    private final TimerSettings settings;

    public RedisTimerStore(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
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
            List<String> args = new ArrayList<>(3 + chunk.size() * 3);
            args.add(ttl);
            args.add(keys.wakeChannel());
            args.add(Integer.toString(shard));
            for (OrderUpdate u : chunk) {
                args.add(u.orderId());
                args.add(Long.toString(u.eventTime()));
                args.add(u.kind().code);
            }
            return ARM.<List<Long>>run(redis, ScriptOutputType.MULTI,
                            new String[]{keys.due(shard), keys.state(shard), keys.ended(shard)}, args.toArray(String[]::new))
                    .thenApply(r -> new ApplyResult(r.get(0), r.get(1), r.get(2)));
        }).thenApply(results -> results.stream().reduce(ApplyResult.NONE, ApplyResult::plus));
    }

    /** Claims up to timer.batch-size orders of the shard whose deadline is at or before both the watermark and now. */
    public CompletableFuture<ClaimBatch> claim(int shard, long watermark) {
        return CLAIM.<List<Object>>run(redis, ScriptOutputType.MULTI,
                new String[]{keys.due(shard), keys.state(shard), keys.epoch(shard)},
                Long.toString(watermark), Long.toString(settings.lease().toMillis()),
                Integer.toString(settings.batchSize()), Long.toString(settings.ttl().toMillis()),
                Integer.toString(settings.maxAttempts())).thenApply(reply -> toBatch(shard, reply));
    }

    private ClaimBatch toBatch(int shard, List<Object> reply) {
        long now = Long.parseLong((String) reply.get(0));
        String next = (String) reply.get(1);
        OptionalLong nextDue = next.isEmpty() ? OptionalLong.empty() : OptionalLong.of((long) Double.parseDouble(next));
        List<?> flat = (List<?>) reply.get(2);
        List<Claim> claims = new ArrayList<>(flat.size() / 5);
        for (int i = 0; i < flat.size(); i += 5) {
            int attempt = Integer.parseInt((String) flat.get(i + 2));
            TimerExpired.Source source = "c".equals(flat.get(i + 4))
                    ? TimerExpired.Source.COMPENSATOR : TimerExpired.Source.TIMER;
            claims.add(new Claim((String) flat.get(i), Long.parseLong((String) flat.get(i + 1)), attempt,
                    Long.parseLong((String) flat.get(i + 3)), source, now, attempt >= settings.maxAttempts()));
        }
        return new ClaimBatch(shard, now, nextDue, claims);
    }

    /** Marks expiries Kafka has accepted: next repeat at firedAt + timer.repeat, or given up after the last attempt. */
    public CompletableFuture<Long> acknowledge(int shard, List<Claim> claims) {
        if (claims.isEmpty()) {
            return CompletableFuture.completedFuture(0L);
        }
        List<String> args = new ArrayList<>(2 + claims.size() * 4);
        args.add(Long.toString(settings.repeat().toMillis()));
        args.add(Integer.toString(settings.maxAttempts()));
        for (Claim c : claims) {
            args.add(c.orderId());
            args.add(Integer.toString(c.attempt()));
            args.add(Long.toString(c.deadline()));
            args.add(Long.toString(c.firedAt()));
        }
        return ACK.run(redis, ScriptOutputType.INTEGER,
                new String[]{keys.due(shard), keys.state(shard), keys.ended(shard)}, args.toArray(String[]::new));
    }

    @Override
    public CompletableFuture<Long> prune(int shard, int limit) {
        return PRUNE.run(redis, ScriptOutputType.INTEGER, new String[]{keys.state(shard), keys.ended(shard)},
                Long.toString(settings.tombstoneRetention().toMillis()), Integer.toString(limit));
    }

    @Override
    public CompletableFuture<Map<String, OrderView>> inspect(Collection<String> orderIds) {
        long ttl = settings.ttl().toMillis();
        return PerShard.call(keys, new ArrayList<>(orderIds), Function.identity(), (shard, chunk) ->
                INSPECT.<List<List<Object>>>run(redis, ScriptOutputType.MULTI,
                        new String[]{keys.due(shard), keys.state(shard)}, chunk.toArray(String[]::new)).thenApply(r -> {
                    List<OrderView> views = new ArrayList<>(chunk.size());
                    for (int i = 0; i < chunk.size(); i++) {
                        Object score = r.get(1).get(i);
                        views.add(StateRecord.view(chunk.get(i), (String) r.get(0).get(i),
                                score == null ? null : Double.valueOf(score.toString()), ttl));
                    }
                    return views;
                })).thenApply(lists -> lists.stream().flatMap(List::stream)
                .collect(Collectors.toMap(OrderView::orderId, v -> v, (a, b) -> a, LinkedHashMap::new)));
    }

    /** Re-arms orders Redis knows nothing of, from lastSeen + ttl; their next expiry says source=compensator. */
    @Override
    public CompletableFuture<List<String>> recover(Map<String, Long> lastSeenByOrder) {
        String ttl = Long.toString(settings.ttl().toMillis());
        return PerShard.call(keys, new ArrayList<>(lastSeenByOrder.keySet()), Function.identity(), (shard, chunk) -> {
            List<String> args = new ArrayList<>(1 + chunk.size() * 2);
            args.add(ttl);
            for (String id : chunk) {
                args.add(id);
                args.add(Long.toString(lastSeenByOrder.get(id)));
            }
            return RECOVER.<List<String>>run(redis, ScriptOutputType.MULTI,
                    new String[]{keys.due(shard), keys.state(shard)}, args.toArray(String[]::new));
        }).thenApply(lists -> lists.stream().flatMap(List::stream).toList());
    }

    @Override
    public CompletableFuture<Long> watchedCount() {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.zcard(keys.due(shard)).toCompletableFuture());
        }
        return CompletableFuture.allOf(counts.toArray(CompletableFuture[]::new))
                .thenApply(v -> counts.stream().mapToLong(CompletableFuture::join).sum());
    }
}
