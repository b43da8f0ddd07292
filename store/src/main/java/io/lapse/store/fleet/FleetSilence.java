package io.lapse.store.fleet;

import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.LuaScript;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A copy of the fleet silence now on, kept in Redis so that every ingest instance and lapse status see it, with the
 * partitions that joined it since it began; the fleet events topic is the record of which silence is on, and the
 * judge writes this copy again when Redis lost it. One instance at a time judges, under a lease.
 */
public final class FleetSilence {

    private static final LuaScript LEAD = LuaScript.named("fleet-lead");

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;

    public FleetSilence(RedisConnection connection, TimerKeys keys) {
        this.redis = connection.async();
        this.keys = keys;
    }

    /** @return whether {@code watcher} holds the lease now, taken or renewed for {@code lease} */
    public CompletableFuture<Boolean> lead(String watcher, Duration lease) {
        return LEAD.<Long>run(
                        redis,
                        ScriptOutputType.INTEGER,
                        new String[] {keys.fleetWatcher()},
                        watcher,
                        Long.toString(lease.toMillis()))
                .thenApply(held -> held == 1L);
    }

    /** The silence on now, as its latest SILENCE_STARTED event, or empty. */
    public CompletableFuture<Optional<FleetEvent>> current() {
        return redis.get(keys.fleetSilence())
                .toCompletableFuture()
                .thenApply(json -> json == null
                        ? Optional.empty()
                        : Optional.of(JsonCodec.FLEET_EVENT.decode(json.getBytes(StandardCharsets.UTF_8))));
    }

    public CompletableFuture<Void> declare(FleetEvent started) {
        return redis.set(keys.fleetSilence(), new String(JsonCodec.FLEET_EVENT.encode(started), StandardCharsets.UTF_8))
                .toCompletableFuture()
                .thenApply(ok -> null);
    }

    public CompletableFuture<Void> end() {
        return redis.del(keys.fleetSilence()).toCompletableFuture().thenApply(n -> null);
    }
}
