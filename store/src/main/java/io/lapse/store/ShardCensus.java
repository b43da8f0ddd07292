package io.lapse.store;

import io.lapse.config.TimerMode;
import io.lapse.config.TimerSettings;
import io.lapse.internal.Futures;
import io.lapse.store.internal.StateRecord;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.Range;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
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

    private static final int SCAN_COUNT = 1000;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;
    private final TimerSettings settings;

    public ShardCensus(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        this.redis = connection.async();
        this.keys = keys;
        this.settings = settings;
    }

    /** Redis's clock in ms, the clock deadlines are compared with. */
    public CompletableFuture<Long> redisNow() {
        return RedisTime.now(redis);
    }

    public CompletableFuture<List<ShardCount>> count(long now, Duration grace) {
        long limit = now - grace.toMillis();
        List<CompletableFuture<ShardCount>> shards = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            shards.add(settings.mode() == TimerMode.ZSET ? sortedSet(shard, limit) : scanned(shard, limit));
        }
        return Futures.allOf(shards);
    }

    private CompletableFuture<ShardCount> sortedSet(int shard, long limit) {
        String due = keys.due(shard);
        var watched = redis.zcard(due).toCompletableFuture();
        var overdue = redis.zcount(due, Range.from(Range.Boundary.unbounded(), Range.Boundary.including(limit)))
                .toCompletableFuture();
        var head = redis.zrangeWithScores(due, 0, 0).toCompletableFuture();
        var epoch = redis.get(keys.epoch(shard)).toCompletableFuture();
        var horizon = rebuiltUpTo(shard);
        return CompletableFuture.allOf(watched, overdue, head, epoch, horizon).thenApply(v -> {
            OverdueOrder oldest = null;
            if (overdue.join() > 0 && !head.join().isEmpty()) {
                ScoredValue<String> first = head.join().get(0);
                oldest = new OverdueOrder(first.getValue(), (long) first.getScore());
            }
            return new ShardCount(shard, watched.join(), overdue.join(), oldest, epoch.join(), horizon.join());
        });
    }

    private CompletableFuture<Long> rebuiltUpTo(int shard) {
        return redis.get(keys.epochHorizon(shard))
                .toCompletableFuture()
                .thenApply(horizon -> horizon == null ? null : Long.valueOf(horizon));
    }

    /** ttl mode keeps deadlines in the state hash only: walk it in steps that never hold Redis up for long. */
    private CompletableFuture<ShardCount> scanned(int shard, long limit) {
        var epoch = redis.get(keys.epoch(shard)).toCompletableFuture();
        var horizon = rebuiltUpTo(shard);
        return CompletableFuture.allOf(epoch, horizon)
                .thenCompose(v -> scanFrom(
                        ScanCursor.INITIAL, new ShardCount(shard, 0, 0, null, epoch.join(), horizon.join()), limit));
    }

    private CompletableFuture<ShardCount> scanFrom(ScanCursor cursor, ShardCount sofar, long limit) {
        return redis.hscan(keys.state(sofar.shard()), cursor, ScanArgs.Builder.limit(SCAN_COUNT))
                .toCompletableFuture()
                .thenCompose(page -> {
                    ShardCount counted = tally(page, sofar, limit);
                    return page.isFinished()
                            ? CompletableFuture.completedFuture(counted)
                            : scanFrom(page, counted, limit);
                });
    }

    private ShardCount tally(MapScanCursor<String, String> page, ShardCount sofar, long limit) {
        long watched = sofar.watched();
        long overdue = sofar.overdue();
        OverdueOrder oldest = sofar.oldest();
        for (var entry : page.getMap().entrySet()) {
            if (entry.getKey().equals(TimerKeys.TABLE_KEEPER)) {
                continue;
            }
            OrderView view = StateRecord.view(
                    entry.getKey(), entry.getValue(), null, settings.ttl().toMillis());
            if (!view.isWatched()) {
                continue;
            }
            watched++;
            long deadline = view.dueAt().orElse(Long.MAX_VALUE);
            if (view.phase() != OrderView.Phase.LEASED && deadline <= limit) {
                overdue++;
                if (oldest == null || deadline < oldest.deadline()) {
                    oldest = new OverdueOrder(view.orderId(), deadline);
                }
            }
        }
        return new ShardCount(sofar.shard(), watched, overdue, oldest, sofar.epoch(), sofar.rebuiltUpTo());
    }
}
