package io.lapse.store.timers.internal;

import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.internal.Futures;
import io.lapse.store.Listening;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.LuaScript;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.Overdue;
import io.lapse.store.timers.ShardCensus.OverdueOrder;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * timer.mode=ttl: one key per watched order that expires at its deadline, fired by Redis's keyspace notifications.
 * Those arrive only when Redis gets round to deleting the key (seconds to minutes late with many keys) and are lost
 * when no subscriber listens; the mode exists for comparison and for users who want it. Every timer instance hears
 * every notification and records it in the shard's due set, which the shard's owner claims from (ttl-claim.lua).
 */
public final class TtlMode implements Mode {

    private static final Logger log = LoggerFactory.getLogger(TtlMode.class);
    private static final LuaScript CLAIM = LuaScript.named("ttl-claim");
    private static final LuaScript MANUAL_CLAIM = LuaScript.named("ttl-manual-claim");
    private static final int SCAN_COUNT = 1000;

    private final RedisConnection connection;
    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;
    private final TimerSettings settings;

    public TtlMode(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        this.connection = connection;
        this.redis = connection.async();
        this.keys = keys;
        this.settings = settings;
    }

    @Override
    public String triggerPrefix(int shard) {
        return keys.triggerPrefix(shard);
    }

    @Override
    public LuaScript claimScript() {
        return CLAIM;
    }

    @Override
    public TimerExpired.Source ownSource() {
        return TimerExpired.Source.KEYSPACE;
    }

    @Override
    public boolean dueSetHoldsDeadlines() {
        return false;
    }

    @Override
    public CompletableFuture<List<String>> manualClaim(int shard, String orderId) {
        return MANUAL_CLAIM.run(
                redis,
                ScriptOutputType.MULTI,
                new String[] {keys.state(shard)},
                keys.triggerPrefix(shard),
                orderId,
                Long.toString(settings.lease().toMillis()),
                Integer.toString(settings.maxAttempts()));
    }

    /** ttl mode keeps deadlines in the state hash only: walk it in steps that never hold Redis up for long. */
    @Override
    public CompletableFuture<ShardTally> census(int shard, long limit) {
        return scanFrom(shard, ScanCursor.INITIAL, new ShardTally(0, 0, null), limit);
    }

    private CompletableFuture<ShardTally> scanFrom(int shard, ScanCursor cursor, ShardTally sofar, long limit) {
        return redis.hscan(keys.state(shard), cursor, ScanArgs.Builder.limit(SCAN_COUNT))
                .toCompletableFuture()
                .thenCompose(page -> {
                    ShardTally counted = tally(page, sofar, limit);
                    return page.isFinished()
                            ? CompletableFuture.completedFuture(counted)
                            : scanFrom(shard, page, counted, limit);
                });
    }

    private ShardTally tally(MapScanCursor<String, String> page, ShardTally sofar, long limit) {
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
        return new ShardTally(watched, overdue, oldest);
    }

    /**
     * Leaves a new owner's inherited claims to their lease: ttl mode keeps no index of its leases (a leased order's
     * trigger key expires with its lease), and finding them would mean scanning every watched order of the shard.
     */
    @Override
    public CompletableFuture<Long> releaseLeases(int shard) {
        return CompletableFuture.completedFuture(0L);
    }

    @Override
    public Listening listen(IntConsumer shardMayBeDue) {
        return KeyspaceNotifications.start(connection, keys.keyspaceCanary(), key -> announce(key, shardMayBeDue));
    }

    /** Records that Redis announced a trigger key as expired, then wakes the shard's owner. */
    public CompletableFuture<Void> announce(String expiredKey, IntConsumer shardMayBeDue) {
        String orderId = keys.orderOfTrigger(expiredKey);
        if (orderId == null) {
            return CompletableFuture.completedFuture(null);
        }
        int shard = keys.shardOf(orderId);
        return redis.zadd(keys.due(shard), ZAddArgs.Builder.nx(), System.currentTimeMillis(), orderId)
                .toCompletableFuture()
                .handle((added, error) -> {
                    if (error != null) {
                        log.warn(
                                "could not record the expiry of {}; the compensator re-arms it: {}",
                                orderId,
                                error.toString());
                    } else {
                        shardMayBeDue.accept(shard);
                    }
                    return null;
                });
    }

    /** Watched orders: entries of the state hashes less the finished and given-up ones, and the table keepers. */
    @Override
    public CompletableFuture<Long> watchedCount() {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.hlen(keys.state(shard)).toCompletableFuture());
            counts.add(redis.zcard(keys.ended(shard)).toCompletableFuture().thenApply(n -> -n));
            counts.add(redis.hexists(keys.state(shard), TimerKeys.TABLE_KEEPER)
                    .toCompletableFuture()
                    .thenApply(kept -> kept ? -1L : 0L));
        }
        return Futures.sum(counts);
    }

    @Override
    public CompletableFuture<Optional<Overdue>> overdue(long dueBefore) {
        return CompletableFuture.completedFuture(Optional.empty());
    }
}
