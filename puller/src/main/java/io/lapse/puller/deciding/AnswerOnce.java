package io.lapse.puller;

import io.lapse.event.TimerExpired;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers each expiry once per {@code (orderId, deadline, attempt, copyOf)}: a duplicate read while the first is in
 * flight shares its answer, and one read after the first was acknowledged needs none, as long as it is among the most
 * recent ones remembered. A copy that on-call published ({@code copyOf} names its original) is an expiry of its own,
 * answered once however many copies of that original arrive; a plain duplicate from the timer is not. Safe to use from
 * any thread.
 */
final class AnswerOnce {

    /** What makes two expiries one for the puller. */
    private record Identity(String orderId, long deadline, int attempt, String copyOf) {
        static Identity of(TimerExpired expiry, String copyOf) {
            return new Identity(expiry.orderId(), expiry.deadline(), expiry.attempt(), copyOf);
        }
    }

    private final Map<Identity, CompletableFuture<Void>> inFlight = new HashMap<>();
    private final Map<Identity, Boolean> answered;
    private final Runnable onDuplicate;

    /** @param remembered how many acknowledged expiries to remember */
    AnswerOnce(int remembered, Runnable onDuplicate) {
        this.answered = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Identity, Boolean> eldest) {
                return size() > remembered;
            }
        };
        this.onDuplicate = onDuplicate;
    }

    /**
     * @param copyOf the original of an on-call copy, or null
     * @param answer answers the expiry; called unless the same one is in flight or was answered recently
     */
    CompletableFuture<Void> answer(TimerExpired expiry, String copyOf, Supplier<CompletableFuture<Void>> answer) {
        Identity identity = Identity.of(expiry, copyOf);
        CompletableFuture<Void> first;
        synchronized (this) {
            if (answered.containsKey(identity)) {
                onDuplicate.run();
                return CompletableFuture.completedFuture(null);
            }
            first = inFlight.get(identity);
            if (first != null) {
                onDuplicate.run();
                return first;
            }
            first = new CompletableFuture<>();
            inFlight.put(identity, first);
        }
        CompletableFuture<Void> done = first;
        answer.get().whenComplete((ok, error) -> settle(identity, done, error));
        return done;
    }

    private void settle(Identity identity, CompletableFuture<Void> done, Throwable error) {
        synchronized (this) {
            inFlight.remove(identity);
            if (error == null) {
                answered.put(identity, true);
            }
        }
        if (error == null) {
            done.complete(null);
        } else {
            done.completeExceptionally(error);
        }
    }
}
