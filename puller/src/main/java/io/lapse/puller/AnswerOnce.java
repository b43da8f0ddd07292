package io.lapse.puller;

import io.lapse.event.TimerExpired;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers each expiry once per {@code (orderId, deadline, attempt)}: a duplicate read while the first is in flight
 * shares its answer, and one read after the first was acknowledged needs none, as long as the triple is among the
 * most recent ones remembered. Safe to use from any thread.
 */
final class AnswerOnce {

    private record Triple(String orderId, long deadline, int attempt) {
        static Triple of(TimerExpired expiry) {
            return new Triple(expiry.orderId(), expiry.deadline(), expiry.attempt());
        }
    }

    private final Map<Triple, CompletableFuture<Void>> inFlight = new HashMap<>();
    private final Map<Triple, Boolean> answered;
    private final Runnable onDuplicate;

    /** @param remembered how many acknowledged triples to remember */
    AnswerOnce(int remembered, Runnable onDuplicate) {
        this.answered = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Triple, Boolean> eldest) {
                return size() > remembered;
            }
        };
        this.onDuplicate = onDuplicate;
    }

    /** @param answer answers the expiry; called unless the triple is in flight or was answered recently */
    CompletableFuture<Void> answer(TimerExpired expiry, Supplier<CompletableFuture<Void>> answer) {
        Triple triple = Triple.of(expiry);
        CompletableFuture<Void> first;
        synchronized (this) {
            if (answered.containsKey(triple)) {
                onDuplicate.run();
                return CompletableFuture.completedFuture(null);
            }
            first = inFlight.get(triple);
            if (first != null) {
                onDuplicate.run();
                return first;
            }
            first = new CompletableFuture<>();
            inFlight.put(triple, first);
        }
        CompletableFuture<Void> done = first;
        answer.get().whenComplete((ok, error) -> settle(triple, done, error));
        return done;
    }

    private void settle(Triple triple, CompletableFuture<Void> done, Throwable error) {
        synchronized (this) {
            inFlight.remove(triple);
            if (error == null) {
                answered.put(triple, true);
            }
        }
        if (error == null) {
            done.complete(null);
        } else {
            done.completeExceptionally(error);
        }
    }
}
