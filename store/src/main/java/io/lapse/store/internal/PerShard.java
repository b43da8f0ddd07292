package io.lapse.store.internal;

import io.lapse.internal.Futures;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/** Groups items by shard and cuts each group into chunks: one script call per chunk, all in flight at once. */
public final class PerShard {

    /** Orders per script call; keeps Lua's unpack() far below its limit. */
    public static final int CHUNK = 2000;

    private PerShard() {}

    /** Each shard's items keep the order they came in. */
    public static <T, R> CompletableFuture<List<R>> call(
            int shards,
            Collection<T> items,
            ToIntFunction<T> shardOf,
            BiFunction<Integer, List<T>, CompletableFuture<R>> call) {
        // loops rather than streams and collectors: ingest groups every record it reads
        List<List<T>> byShard = new ArrayList<>(shards);
        for (int shard = 0; shard < shards; shard++) {
            byShard.add(new ArrayList<>());
        }
        for (T item : items) {
            byShard.get(shardOf.applyAsInt(item)).add(item);
        }
        List<CompletableFuture<R>> calls = new ArrayList<>();
        for (int shard = 0; shard < byShard.size(); shard++) {
            List<T> list = byShard.get(shard);
            for (int from = 0; from < list.size(); from += CHUNK) {
                calls.add(call.apply(shard, list.subList(from, Math.min(from + CHUNK, list.size()))));
            }
        }
        return Futures.allOf(calls);
    }

    /**
     * Keeps one update per order: the one that decides (see OrderUpdate.mergeWith), where its order first came. A
     * batch read from Kafka comes about in event time order, and keeps it, so that sorting it by deadline costs about
     * one pass; a hash map's order would scatter it.
     */
    public static <T> Collection<T> newestPerOrder(
            Collection<T> updates, Function<T, String> orderId, BinaryOperator<T> merge) {
        Map<String, T> newest = new LinkedHashMap<>(updates.size() * 4 / 3 + 1);
        for (T update : updates) {
            newest.merge(orderId.apply(update), update, merge);
        }
        return newest.values();
    }
}
