package io.lapse.store.timers;

import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.store.Listening;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.internal.LuaTimerStore;
import io.lapse.store.timers.internal.Mode;
import io.lapse.store.timers.internal.TtlMode;
import io.lapse.store.timers.internal.ZsetMode;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * The Redis timer store, whichever timer.mode keeps the deadlines: ingest applies statuses, the timer claims and
 * acknowledges expiries, the puller, on-call and the status page inspect. Every operation is one Lua script per
 * shard touched, all in flight at once.
 */
public interface TimerStore {

    /** The store of the configured timer.mode: the one place that tells the modes apart. */
    static TimerStore of(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        Mode mode = switch (settings.mode()) {
            case ZSET -> new ZsetMode(connection, keys, settings);
            case TTL -> new TtlMode(connection, keys, settings);
        };
        return new LuaTimerStore(connection, keys, settings, mode);
    }

    TimerKeys keys();

    /** Re-arms, ends or ignores each order as its newest update says; completes once Redis has applied them all. */
    CompletableFuture<ApplyResult> apply(Collection<OrderUpdate> updates);

    /**
     * Claims, with a lease of timer.lease, up to timer.batch-size orders of the shard that are due at or before both
     * the watermark and Redis's clock. A claim not acknowledged within the lease is claimed again, same triple.
     */
    CompletableFuture<ClaimBatch> claim(int shard, long watermark);

    /**
     * As {@link #claim(int, long)}, but the {@code unread} orders stay where they are whatever their deadline: the
     * timer, standing in for an absent ingest, found records of theirs that ingest has not applied. Only where the due
     * set holds deadlines ({@link #claimsPastUnread}).
     */
    CompletableFuture<ClaimBatch> claim(int shard, long watermark, Collection<String> unread);

    /** Whether {@link #claim(int, long, Collection)} can leave orders out: zset mode, not ttl mode. */
    boolean claimsPastUnread();

    /** Marks expiries Kafka has accepted: the next repeat is armed, or the order given up after its last attempt. */
    CompletableFuture<Long> acknowledge(int shard, List<Claim> claims);

    /**
     * Tells {@code shardMayBeDue} whenever a shard may hold an expiry due earlier than the timer expects (an earlier
     * deadline armed, or Redis announcing an expired key). Messages may be lost: the timer asks every shard
     * periodically anyway. Closing stops listening.
     */
    Listening listen(IntConsumer shardMayBeDue);

    /** What Redis knows of each order. */
    CompletableFuture<Map<String, OrderView>> inspect(Collection<String> orderIds);

    /** Orders watched now, over all shards. */
    CompletableFuture<Long> watchedCount();

    /**
     * Watched orders whose deadline passed before {@code dueBefore} without firing (a claimed order counts by its
     * lease, not its deadline); empty where the mode cannot tell: in ttl mode only Redis knows which keys are past due.
     */
    CompletableFuture<Optional<Overdue>> overdue(long dueBefore);

    /**
     * The earliest score over every shard's due set: the next moment some order needs the timer (a deadline, a lease
     * running out; in ttl mode an expiry Redis announced), which the timer can act on only once the watermark has
     * reached it; empty when every shard is empty. Ingest asks the broker for its caught-up proof while it is near.
     */
    CompletableFuture<OptionalLong> earliestDue();

    /** Forgets up to {@code limit} orders of the shard that ended or were given up longer than the retention ago. */
    CompletableFuture<Long> prune(int shard, int limit);

    /**
     * Lets the claims of a shard this instance was just given fire again now rather than when their lease runs out:
     * they were made by whoever served the shard before, which was killed or lost it.
     *
     * @return how many claims were released
     */
    CompletableFuture<Long> releaseLeases(int shard);
}
