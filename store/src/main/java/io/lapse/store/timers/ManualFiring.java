package io.lapse.store.timers;

import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.internal.LuaTimerStore;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * Fires one order now, on on-call's word ({@code lapse fire}): claims it with a lease and source manual through a
 * script of its own, whatever its deadline and the watermark; the caller publishes the claim and then acknowledges it
 * through the timer's own script, so that a publish Kafka never acknowledged fires again after the lease. A given-up
 * order gets its final attempt once more and stays given up.
 */
public final class ManualFiring {

    /** What a manual claim found. */
    public enum Outcome {
        CLAIMED,
        UNKNOWN,
        FINISHED,
        /** An expiry of the order is being published right now. */
        LEASED
    }

    /** @param claim present only when the outcome is CLAIMED */
    public record Result(Outcome outcome, Claim claim) {}

    private final LuaTimerStore store;
    private final TimerKeys keys;
    private final TimerSettings settings;

    public ManualFiring(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        this.store = LuaTimerStore.of(connection, keys, settings);
        this.keys = keys;
        this.settings = settings;
    }

    public CompletableFuture<Result> claim(String orderId) {
        return store.mode().manualClaim(keys.shardOf(orderId), orderId).thenApply(r -> toResult(orderId, r));
    }

    private Result toResult(String orderId, List<String> reply) {
        Outcome outcome = Outcome.valueOf(reply.get(1).toUpperCase(Locale.ROOT).replace('-', '_'));
        if (outcome != Outcome.CLAIMED) {
            return new Result(outcome, null);
        }
        long now = Long.parseLong(reply.get(0));
        int attempt = Integer.parseInt(reply.get(3));
        return new Result(
                outcome,
                new Claim(
                        orderId,
                        Long.parseLong(reply.get(2)),
                        attempt,
                        now,
                        TimerExpired.Source.MANUAL,
                        now,
                        attempt >= settings.maxAttempts()));
    }

    /**
     * Marks the claim's expiry as published, as the timer does after Kafka acknowledged it.
     *
     * @return false when a newer status or claim had replaced the claim meanwhile
     */
    public CompletableFuture<Boolean> acknowledge(Claim claim) {
        int shard = keys.shardOf(claim.orderId());
        return store.acknowledge(shard, List.of(claim)).thenApply(n -> n == 1);
    }
}
