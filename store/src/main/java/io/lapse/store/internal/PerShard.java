package io.lapse.store.internal;

import io.lapse.internal.Futures;
import io.lapse.store.TimerKeys;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/** Groups items by shard and cuts each group into chunks: one script call per chunk, all in flight at once. */
public final class PerShard {

    /** Orders per script call; keeps Lua's unpack() far below its limit. */
    public static final int CHUNK = 2000;

    private PerShard() {}

    public static <T, R> CompletableFuture<List<R>> call(
            TimerKeys keys,
            Collection<T> items,
            Function<T, String> orderId,
            BiFunction<Integer, List<T>, CompletableFuture<R>> call) {
        // loops rather than streams and collectors: ingest groups every record it reads
        List<List<T>> byShard = new ArrayList<>(keys.shards());
        for (int shard = 0; shard < keys.shards(); shard++) {
            byShard.add(new ArrayList<>());
        }
        for (T item : items) {
            byShard.get(keys.shardOf(orderId.apply(item))).add(item);
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

    /** Keeps one update per order: the one that decides (see OrderUpdate.mergeWith). */
    public static <T> Collection<T> newestPerOrder(
            Collection<T> updates, Function<T, String> orderId, BinaryOperator<T> merge) {
        Map<String, T> newest = new HashMap<>(updates.size() * 4 / 3 + 1);
        for (T update : updates) {
            newest.merge(orderId.apply(update), update, merge);
        }
        return newest.values();
    }
}
