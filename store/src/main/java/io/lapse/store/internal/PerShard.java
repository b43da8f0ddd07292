package io.lapse.store.internal;

import io.lapse.internal.Futures;
import io.lapse.store.TimerKeys;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

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
        Map<Integer, List<T>> byShard =
                items.stream().collect(Collectors.groupingBy(item -> keys.shardOf(orderId.apply(item))));
        List<CompletableFuture<R>> calls = new ArrayList<>();
        byShard.forEach((shard, list) -> {
            for (int from = 0; from < list.size(); from += CHUNK) {
                calls.add(call.apply(shard, list.subList(from, Math.min(from + CHUNK, list.size()))));
            }
        });
        return Futures.allOf(calls);
    }

    /** Keeps one update per order: the one that decides (see OrderUpdate.mergeWith). */
    public static <T> Collection<T> newestPerOrder(
            Collection<T> updates, Function<T, String> orderId, java.util.function.BinaryOperator<T> merge) {
        return updates.stream()
                .collect(Collectors.toMap(orderId, u -> u, merge))
                .values();
    }
}
