package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Blocking;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import java.time.Clock;
import java.time.Duration;

/**
 * Asks every compensator instance's push folder, through Redis, to hand the pushes it read to the mirror at once
 * rather than at the end of its round: a drift scan, which waits for the mirror to hold everything published when it
 * began, and {@code lapse rebuild}, which a running compensator would otherwise keep waiting for up to a round. Each
 * instance's loss watch, which reads Redis twice a second anyway, looks at the request too ({@link #askedSinceLastLook}).
 * Redis losing the key loses nothing: a loss has every instance hand over by itself.
 */
public final class HandOverRequests {

    private static final Duration STALE = Duration.ofMinutes(1);

    private final RedisConnection redis;
    private final String key;
    private final Clock clock;
    /** Requests up to this moment are answered; at first, those older than a minute before this instance began. */
    private long lastSeen;

    public HandOverRequests(RedisConnection redis, TimerKeys keys, Clock clock) {
        this.redis = redis;
        this.key = keys.pushHandOver();
        this.clock = clock;
        this.lastSeen = clock.millis() - STALE.toMillis();
    }

    /** Asks every instance to hand over what it read up to now. */
    public void ask() {
        Blocking.await(
                redis.async().set(key, Long.toString(clock.millis())).toCompletableFuture(), "ask for a hand-over");
    }

    /**
     * Whether anyone asked since this instance last looked: at the first look, within the minute before it began, so
     * that a {@code lapse rebuild} waiting for a compensator that starts meanwhile gets its hand-over.
     */
    public boolean askedSinceLastLook() {
        String value = Blocking.await(redis.async().get(key).toCompletableFuture(), "read the hand-over requests");
        long asked = asked(value);
        if (asked <= lastSeen) {
            return false;
        }
        lastSeen = asked;
        return true;
    }

    /** A value nobody but Lapse should write; anything else asks for nothing rather than stopping the watch. */
    private static long asked(String value) {
        try {
            return value == null ? Long.MIN_VALUE : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }
}
