package io.lapse.store.internal;

import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.internal.Futures;
import io.lapse.store.Listening;
import io.lapse.store.Overdue;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lettuce.core.ZAddArgs;
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
public final class TtlTimerStore extends LuaTimerStore {

    private static final Logger log = LoggerFactory.getLogger(TtlTimerStore.class);

    public TtlTimerStore(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        super(connection, keys, settings, "ttl-claim", TimerExpired.Source.KEYSPACE);
    }

    @Override
    protected String triggerPrefix(int shard) {
        return keys.triggerPrefix(shard);
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
