package io.lapse.store;

import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.store.internal.LuaScript;
import io.lapse.store.internal.StateRecord;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The sorted-set timer store: every operation on it is one Lua script per shard, so a batch costs one round trip
 * per shard whatever its size, and each script is atomic. See the scripts in {@code /io/lapse/store/} for the data
 * layout.
 */
public final class RedisTimerStore {

    /** Orders per script call; keeps Lua's unpack() far below its limit. */
    static final int CHUNK = 2000;

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

    public TimerKeys keys() {
        return keys;
    }

    /** Re-arms, ends or ignores each order as its newest update says; completes once Redis has applied them all. */
    public CompletableFuture<ApplyResult> apply(Collection<OrderUpdate> updates) {
        Map<String, OrderUpdate> newest = new HashMap<>();
        updates.forEach(u -> newest.merge(u.orderId(), u, OrderUpdate::mergeWith));
        String ttl = Long.toString(settings.ttl().toMillis());
        return perShard(newest.values(), OrderUpdate::orderId, (shard, chunk) -> {
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
        return CLAIM.<List<Object>>run(redis, ScriptOutputType.MULTI, new String[]{keys.due(shard), keys.state(shard)},
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

    /** Forgets up to {@code limit} orders that ended or were given up longer than timer.tombstone-retention ago. */
    public CompletableFuture<Long> prune(int shard, int limit) {
        return PRUNE.run(redis, ScriptOutputType.INTEGER, new String[]{keys.state(shard), keys.ended(shard)},
                Long.toString(settings.tombstoneRetention().toMillis()), Integer.toString(limit));
    }

    /** What Redis knows of each order. */
    public CompletableFuture<Map<String, OrderView>> inspect(Collection<String> orderIds) {
        long ttl = settings.ttl().toMillis();
        return perShard(new ArrayList<>(orderIds), Function.identity(), (shard, chunk) ->
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

    /**
     * Re-arms orders Redis knows nothing of, from lastSeen + ttl; their next expiry says source=compensator.
     *
     * @return the orderIds that were re-armed
     */
    public CompletableFuture<List<String>> recover(Map<String, Long> lastSeenByOrder) {
        String ttl = Long.toString(settings.ttl().toMillis());
        return perShard(new ArrayList<>(lastSeenByOrder.keySet()), Function.identity(), (shard, chunk) -> {
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

    /** Orders queued in every shard (watched, including leased ones). */
    public CompletableFuture<Long> watchedCount() {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.zcard(keys.due(shard)).toCompletableFuture());
        }
        return CompletableFuture.allOf(counts.toArray(CompletableFuture[]::new))
                .thenApply(v -> counts.stream().mapToLong(CompletableFuture::join).sum());
    }

    /** Groups items by shard, cuts each group into chunks, runs one call per chunk, all in flight at once. */
    private <T, R> CompletableFuture<List<R>> perShard(Collection<T> items, Function<T, String> orderId,
                                                       BiFunction<Integer, List<T>, CompletableFuture<R>> call) {
        Map<Integer, List<T>> byShard = items.stream()
                .collect(Collectors.groupingBy(item -> keys.shardOf(orderId.apply(item))));
        List<CompletableFuture<R>> calls = new ArrayList<>();
        byShard.forEach((shard, list) -> {
            for (int from = 0; from < list.size(); from += CHUNK) {
                calls.add(call.apply(shard, list.subList(from, Math.min(from + CHUNK, list.size()))));
            }
        });
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(v -> calls.stream().map(CompletableFuture::join).toList());
    }
}
