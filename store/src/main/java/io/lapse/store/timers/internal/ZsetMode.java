package io.lapse.store.timers.internal;

import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.internal.Futures;
import io.lapse.store.Listening;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.LuaScript;
import io.lapse.store.timers.Overdue;
import io.lapse.store.timers.ShardCensus.OverdueOrder;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * timer.mode=zset: one sorted set of deadlines per shard, claimed with a lease; ingest's arm script wakes the timer
 * when it arms a deadline earlier than the shard's earliest. See the scripts in {@code /io/lapse/store/}.
 */
public final class ZsetMode implements Mode {

    private static final LuaScript CLAIM = LuaScript.named("claim");
    private static final LuaScript MANUAL_CLAIM = LuaScript.named("manual-claim");
    private static final LuaScript RELEASE_LEASES = LuaScript.named("release-leases");

    private final RedisConnection connection;
    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;
    private final TimerSettings settings;

    public ZsetMode(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        this.connection = connection;
        this.redis = connection.async();
        this.keys = keys;
        this.settings = settings;
    }

    @Override
    public String triggerPrefix(int shard) {
        return "";
    }

    @Override
    public LuaScript claimScript() {
        return CLAIM;
    }

    @Override
    public TimerExpired.Source ownSource() {
        return TimerExpired.Source.TIMER;
    }

    @Override
    public boolean dueSetHoldsDeadlines() {
        return true;
    }

    @Override
    public CompletableFuture<List<String>> manualClaim(int shard, String orderId) {
        return MANUAL_CLAIM.run(
                redis,
                ScriptOutputType.MULTI,
                new String[] {keys.due(shard), keys.state(shard)},
                orderId,
                Long.toString(settings.lease().toMillis()),
                Long.toString(settings.ttl().toMillis()),
                Integer.toString(settings.maxAttempts()));
    }

    @Override
    public CompletableFuture<ShardTally> census(int shard, long limit) {
        String due = keys.due(shard);
        var watched = redis.zcard(due).toCompletableFuture();
        var overdue = redis.zcount(due, Range.from(Range.Boundary.unbounded(), Range.Boundary.including(limit)))
                .toCompletableFuture();
        var head = redis.zrangeWithScores(due, 0, 0).toCompletableFuture();
        return CompletableFuture.allOf(watched, overdue, head).thenApply(v -> {
            OverdueOrder oldest = null;
            if (overdue.join() > 0 && !head.join().isEmpty()) {
                ScoredValue<String> first = head.join().get(0);
                oldest = new OverdueOrder(first.getValue(), (long) first.getScore());
            }
            return new ShardTally(watched.join(), overdue.join(), oldest);
        });
    }

    @Override
    public CompletableFuture<Long> releaseLeases(int shard) {
        return RELEASE_LEASES.run(
                redis,
                ScriptOutputType.INTEGER,
                new String[] {keys.due(shard), keys.state(shard)},
                Long.toString(settings.lease().toMillis()));
    }

    @Override
    public Listening listen(IntConsumer shardMayBeDue) {
        return new WakeSubscription(connection, keys.wakeChannel(), shardMayBeDue);
    }

    @Override
    public CompletableFuture<Long> watchedCount() {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.zcard(keys.due(shard)).toCompletableFuture());
        }
        return Futures.sum(counts);
    }

    @Override
    public CompletableFuture<Optional<Overdue>> overdue(long dueBefore) {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        List<CompletableFuture<List<ScoredValue<String>>>> earliest = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.zcount(keys.due(shard), Range.create(Double.NEGATIVE_INFINITY, (double) dueBefore))
                    .toCompletableFuture());
            earliest.add(redis.zrangeWithScores(keys.due(shard), 0, 0).toCompletableFuture());
        }
        CompletableFuture<Long> count = Futures.sum(counts);
        return Futures.allOf(earliest).thenCombine(count, (heads, late) -> {
            OptionalLong oldest = late == 0
                    ? OptionalLong.empty()
                    : OptionalLong.of((long) heads.stream()
                            .flatMap(List::stream)
                            .mapToDouble(ScoredValue::getScore)
                            .min()
                            .orElseThrow());
            return Optional.of(new Overdue(late, oldest));
        });
    }
}
