package io.lapse.internal;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Waiting for many futures at once: the one way Lapse joins a batch of Redis or Kafka calls. */
public final class Futures {

    private Futures() {}

    /** Completes when every future has, failing with the first failure; the results keep the futures' order. */
    public static <T> CompletableFuture<List<T>> allOf(Collection<? extends CompletableFuture<? extends T>> futures) {
        List<CompletableFuture<? extends T>> calls = List.copyOf(futures);
        return allDone(calls)
                .thenApply(
                        done -> calls.stream().<T>map(CompletableFuture::join).toList());
    }

    /** Completes when every future has, failing with the first failure; for futures whose results do not matter. */
    public static CompletableFuture<Void> allDone(Collection<? extends CompletableFuture<?>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
    }

    /** The sum of one count per call, e.g. one per shard. */
    public static CompletableFuture<Long> sum(Collection<? extends CompletableFuture<Long>> counts) {
        return allOf(counts)
                .thenApply(all -> all.stream().mapToLong(Long::longValue).sum());
    }
}
