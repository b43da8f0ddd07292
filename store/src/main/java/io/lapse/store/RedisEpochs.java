package io.lapse.store;

import io.lapse.internal.Futures;
import io.lapse.store.internal.LuaScript;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The epoch marker of each timer shard: a key that only a completed rebuild writes and that goes with everything else
 * when Redis loses its data. The timer fires nothing from a shard without one (claim.lua, ttl-fire.lua).
 */
public final class RedisEpochs {

    private static final LuaScript BEGIN = LuaScript.named("epoch-begin");
    private static final LuaScript FINISH = LuaScript.named("epoch-finish");

    private final RedisConnection connection;
    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;

    public RedisEpochs(RedisConnection connection, TimerKeys keys) {
        this.connection = connection;
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
        return perShard(shard -> BEGIN.run(redis, ScriptOutputType.VALUE, new String[] {next(shard)}, candidate));
    }

    /**
     * Declares the shards rebuilt, lets the timer fire from them and wakes it.
     *
     * @return the shards declared; any other one lost data after its rebuild began and must be rebuilt again
     */
    public CompletableFuture<Set<Integer>> finish(Map<Integer, String> generations) {
        List<CompletableFuture<Integer>> declared = new ArrayList<>();
        generations.forEach((shard, generation) -> declared.add(FINISH.<Long>run(
                        redis,
                        ScriptOutputType.INTEGER,
                        new String[] {keys.epoch(shard), next(shard)},
                        generation,
                        keys.wakeChannel(),
                        Integer.toString(shard))
                .thenApply(done -> done == 1 ? shard : null)));
        return Futures.allOf(declared)
                .thenApply(shards ->
                        shards.stream().filter(shard -> shard != null).collect(Collectors.toCollection(TreeSet::new)));
    }

    /**
     * Sets every shard's epoch without a rebuild: only for a Redis known to hold everything, such as one that a test
     * or a benchmark filled by itself.
     */
    public CompletableFuture<Void> stamp(String epoch) {
        return perShard(shard -> redis.set(keys.epoch(shard), epoch).toCompletableFuture())
                .thenApply(v -> null);
    }

    /** The run id of each Redis master: a new one means a restart or a failover, which may have lost writes. */
    public CompletableFuture<Set<String>> serverRunIds() {
        List<CompletableFuture<String>> ids = connection.eachMaster().stream()
                .map(master -> master.info("server").toCompletableFuture().thenApply(RedisEpochs::runId))
                .toList();
        return Futures.allOf(ids).thenApply(Set::copyOf);
    }

    private static String runId(String info) {
        return info.lines()
                .filter(line -> line.startsWith("run_id:"))
                .map(line -> line.substring(7).trim())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("INFO server names no run_id"));
    }

    private String next(int shard) {
        return keys.epoch(shard) + ":next";
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
