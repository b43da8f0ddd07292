package io.lapse.store.epochs;

import io.lapse.internal.Futures;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.internal.LuaScript;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The epoch marker of each timer shard: a key that only a completed rebuild writes and that goes with everything else
 * when Redis loses its data. The timer fires nothing from a shard without one (claim.lua, ttl-claim.lua), apart from
 * what a rebuild under way has declared written up to its {@link #rebuiltUpTo horizon}. Each epoch and horizon records
 * the server it was declared on, and {@link #fence} takes it away once another server serves the shard's data.
 */
public final class RedisEpochs {

    private static final LuaScript BEGIN = LuaScript.named("epoch-begin");
    private static final LuaScript FINISH = LuaScript.named("epoch-finish");
    private static final LuaScript HORIZON = LuaScript.named("epoch-horizon");
    private static final LuaScript STAMP = LuaScript.named("epoch-stamp");
    private static final LuaScript FENCE = LuaScript.named("epoch-fence");

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;

    public RedisEpochs(RedisConnection connection, TimerKeys keys) {
        this.redis = connection.async();
        this.keys = keys;
    }

    /** Each shard's epoch; null for a shard without one. */
    public CompletableFuture<Map<Integer, String>> current() {
        return perShard(shard -> redis.get(keys.epoch(shard)).toCompletableFuture());
    }

    /**
     * Starts a rebuild of every shard.
     *
     * @param candidate the epoch to give shards that no other rebuild is already working on
     * @return each shard's generation, to hand to {@link #finish} once the shard is rebuilt
     */
    public CompletableFuture<Map<Integer, String>> begin(String candidate) {
        return perShard(shard ->
                BEGIN.run(redis, ScriptOutputType.VALUE, new String[] {next(shard), nextServer(shard)}, candidate));
    }

    /**
     * Declares the shards rebuilt up to a moment while their rebuild goes on: every finished and given-up mark and every
     * watched timer due by then is written, so the timer fires those of them that are due, and is woken.
     *
     * @param horizon ms; the declaration is fenced and taken away with Redis's data as the epoch is
     * @return the shards declared; any other one lost data after its rebuild began and fires nothing until rebuilt
     */
    public CompletableFuture<Set<Integer>> rebuiltUpTo(Map<Integer, String> generations, long horizon) {
        return declare(
                generations,
                (shard, generation) -> HORIZON.run(
                        redis,
                        ScriptOutputType.INTEGER,
                        new String[] {next(shard), keys.epochHorizon(shard), keys.epochServer(shard), nextServer(shard)
                        },
                        generation,
                        Long.toString(horizon),
                        keys.wakeChannel(),
                        Integer.toString(shard)));
    }

    /**
     * Declares the shards rebuilt, lets the timer fire from them and wakes it.
     *
     * @return the shards declared; any other one lost data after its rebuild began and must be rebuilt again
     */
    public CompletableFuture<Set<Integer>> finish(Map<Integer, String> generations) {
        return declare(
                generations,
                (shard, generation) -> FINISH.run(
                        redis,
                        ScriptOutputType.INTEGER,
                        new String[] {
                            keys.epoch(shard),
                            next(shard),
                            keys.epochServer(shard),
                            keys.epochHorizon(shard),
                            nextServer(shard)
                        },
                        generation,
                        keys.wakeChannel(),
                        Integer.toString(shard)));
    }

    /** Runs a declaration per shard; it answers 1 where the shard is declared. */
    private CompletableFuture<Set<Integer>> declare(
            Map<Integer, String> generations, BiFunction<Integer, String, CompletableFuture<Long>> declaration) {
        List<CompletableFuture<Integer>> declared = new ArrayList<>();
        generations.forEach((shard, generation) ->
                declared.add(declaration.apply(shard, generation).thenApply(done -> done == 1 ? shard : null)));
        return Futures.allOf(declared)
                .thenApply(shards ->
                        shards.stream().filter(shard -> shard != null).collect(Collectors.toCollection(TreeSet::new)));
    }

    /**
     * Sets every shard's epoch without a rebuild: only for a Redis known to hold everything, such as one that a test
     * or a benchmark filled by itself.
     */
    public CompletableFuture<Void> stamp(String epoch) {
        return perShard(shard -> STAMP.<Long>run(
                        redis,
                        ScriptOutputType.INTEGER,
                        new String[] {keys.epoch(shard), keys.epochServer(shard)},
                        epoch))
                .thenApply(v -> null);
    }

    /**
     * Takes away the epoch, or a rebuild's horizon, of each of these shards that was declared on another Redis server
     * than the one serving it now: a restart, a failover to a replica or a restored snapshot, any of which may have
     * lost acknowledged writes. A rebuild whose horizon is taken away cannot declare the epoch either, nor can one that
     * began on another server.
     *
     * @return the shards fenced, each with the epoch it had (or {@code up to} and the horizon, or {@code rebuild} and
     *     the epoch of a rebuild under way that began on another server)
     */
    public CompletableFuture<Map<Integer, String>> fence(Collection<Integer> shards) {
        Map<Integer, CompletableFuture<String>> calls = new TreeMap<>();
        shards.forEach(shard -> calls.put(shard, FENCE.run(redis, ScriptOutputType.VALUE, new String[] {
            keys.epoch(shard), keys.epochServer(shard), keys.epochHorizon(shard), next(shard), nextServer(shard)
        })));
        return Futures.allDone(calls.values()).thenApply(v -> {
            Map<Integer, String> fenced = new TreeMap<>();
            calls.forEach((shard, taken) -> {
                if (taken.join() != null) {
                    fenced.put(shard, taken.join());
                }
            });
            return fenced;
        });
    }

    /** Every shard, for {@link #fence}. */
    public Set<Integer> allShards() {
        return IntStream.range(0, keys.shards()).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    private String next(int shard) {
        return keys.epoch(shard) + ":next";
    }

    /** The run id of the server the rebuild under way began on: on any other, it may lack the rebuild's writes. */
    private String nextServer(int shard) {
        return next(shard) + ":server";
    }

    private <T> CompletableFuture<Map<Integer, T>> perShard(Function<Integer, CompletableFuture<T>> call) {
        Map<Integer, CompletableFuture<T>> calls = new HashMap<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            calls.put(shard, call.apply(shard));
        }
        return Futures.allDone(calls.values()).thenApply(v -> {
            Map<Integer, T> results = new HashMap<>();
            calls.forEach((shard, reply) -> results.put(shard, reply.join()));
            return results;
        });
    }
}
