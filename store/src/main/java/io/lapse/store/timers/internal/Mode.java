package io.lapse.store.timers.internal;

import io.lapse.event.TimerExpired;
import io.lapse.store.Listening;
import io.lapse.store.internal.LuaScript;
import io.lapse.store.timers.Overdue;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * What a timer.mode does its own way, one implementation per mode ({@link ZsetMode}, {@link TtlMode}):
 * {@code TimerStore.of} picks it, the one place that tells the modes apart, and {@link LuaTimerStore},
 * {@code ManualFiring}, {@code ShardCensus} and {@code TimerRebuild} ask it. The scripts both modes run (arm, ack,
 * rebuild) learn the mode from the trigger key prefix they are given, '' in zset mode ({@code is_zset_mode} in
 * prelude.lua); a mode's own scripts (claim, manual claim) need not ask.
 */
public interface Mode {

    /** The prefix of the shard's per-order trigger keys, '' for a mode without them: what tells scripts the mode. */
    String triggerPrefix(int shard);

    /** The script that claims a shard's due orders; it takes claim.lua's keys and arguments. */
    LuaScript claimScript();

    /** What the mode's own expiries say as their source; recovered ones say compensator. */
    TimerExpired.Source ownSource();

    /** Whether the due set's scores are deadlines (zset mode) rather than announcements (ttl mode). */
    boolean dueSetHoldsDeadlines();

    /**
     * Claims one order now, whatever its deadline and the watermark ({@code lapse fire}).
     *
     * @return the manual claim scripts' reply: Redis's clock, the outcome, and for a claim its deadline and attempt
     */
    CompletableFuture<List<String>> manualClaim(int shard, String orderId);

    /** Counts the shard's watched timers and those due at or before {@code limit} without firing. */
    CompletableFuture<ShardTally> census(int shard, long limit);

    /** See {@code TimerStore.listen}. */
    Listening listen(IntConsumer shardMayBeDue);

    /** See {@code TimerStore.watchedCount}. */
    CompletableFuture<Long> watchedCount();

    /** See {@code TimerStore.overdue}. */
    CompletableFuture<Optional<Overdue>> overdue(long dueBefore);

    /** See {@code TimerStore.releaseLeases}. */
    CompletableFuture<Long> releaseLeases(int shard);
}
