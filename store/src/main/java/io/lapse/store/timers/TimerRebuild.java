package io.lapse.store.timers;

import io.lapse.config.TimerSettings;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.LuaScript;
import io.lapse.store.internal.PerShard;
import io.lapse.store.timers.internal.LuaTimerStore;
import io.lapse.store.timers.internal.Mode;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Writes the compensator's images of orders into either timer mode's keys wherever Redis holds less than the image,
 * so that rebuilding never undoes what ingest, the timer or another rebuild did meanwhile (see rebuild.lua).
 */
public final class TimerRebuild {

    private static final LuaScript REBUILD = LuaScript.named("rebuild");

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;
    private final TimerSettings settings;
    private final Mode mode;

    public TimerRebuild(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        this.redis = connection.async();
        this.keys = keys;
        this.settings = settings;
        this.mode = LuaTimerStore.of(connection, keys, settings).mode();
    }

    public TimerKeys keys() {
        return keys;
    }

    /** @param dryRun count what would be written, and write nothing */
    public CompletableFuture<RebuildCount> merge(Collection<TimerImage> images, boolean dryRun) {
        String ttl = Long.toString(settings.ttl().toMillis());
        String dry = dryRun ? "1" : "0";
        return PerShard.call(keys.shards(), images, image -> keys.shardOf(image.orderId()), (shard, chunk) -> {
                    List<String> args = new ArrayList<>(3 + chunk.size() * 6);
                    args.add(mode.triggerPrefix(shard));
                    args.add(ttl);
                    args.add(dry);
                    for (TimerImage image : chunk) {
                        args.add(image.orderId());
                        args.add(image.phase().code);
                        args.add(Long.toString(image.lastSeen()));
                        args.add(Integer.toString(image.fired()));
                        args.add(Long.toString(image.firedDeadline()));
                        args.add(Long.toString(image.at()));
                    }
                    return REBUILD.<List<Long>>run(
                                    redis,
                                    ScriptOutputType.MULTI,
                                    new String[] {keys.due(shard), keys.state(shard), keys.ended(shard)},
                                    args.toArray(String[]::new))
                            .thenApply(r -> new RebuildCount(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)));
                })
                .thenApply(counts -> counts.stream().reduce(RebuildCount.NONE, RebuildCount::plus));
    }
}
