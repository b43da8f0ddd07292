package io.lapse.puller.deciding;

import io.lapse.event.TimerExpired;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers each expiry once per {@code (orderId, deadline, attempt, copyOf, visits)}: a duplicate read while the first
 * is in flight shares its answer, and one read after the first was acknowledged needs none, as long as it is among the
 * most recent ones remembered. A copy that on-call published ({@code copyOf} names its original) is an expiry of its
 * own, answered once however many copies of that original arrive; a plain duplicate from the timer is not. An expiry
 * back from the parked topic is one of its own too ({@code visits} counts its parkings): parking it answered the one
 * before. Safe to use from any thread.
 *
 * @param <T> what an answer completes with
 */
public final class AnswerOnce<T> {

    /** What makes two expiries one for the puller. */
    private record Identity(String orderId, long deadline, int attempt, String copyOf, int visits) {
        static Identity of(TimerExpired expiry, String copyOf, int visits) {
            return new Identity(expiry.orderId(), expiry.deadline(), expiry.attempt(), copyOf, visits);
        }
    }

    private final Map<Identity, CompletableFuture<T>> inFlight = new HashMap<>();
    private final Map<Identity, Boolean> answered;
    private final Runnable onDuplicate;
    private final T asAnswered;

    /**
     * @param remembered how many acknowledged expiries to remember
     * @param asAnswered what the answer to a duplicate of one acknowledged completes with
     */
    public AnswerOnce(int remembered, Runnable onDuplicate, T asAnswered) {
        this.answered = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Identity, Boolean> eldest) {
                return size() > remembered;
            }
        };
        this.onDuplicate = onDuplicate;
        this.asAnswered = asAnswered;
    }

    /**
     * @param copyOf the original of an on-call copy, or null
     * @param visits times the expiry was parked before
     * @param answer answers the expiry; called unless the same one is in flight or was answered recently
     */
    CompletableFuture<T> answer(TimerExpired expiry, String copyOf, int visits, Supplier<CompletableFuture<T>> answer) {
        Identity identity = Identity.of(expiry, copyOf, visits);
        CompletableFuture<T> first;
        synchronized (this) {
            if (answered.containsKey(identity)) {
                onDuplicate.run();
                return CompletableFuture.completedFuture(asAnswered);
            }
            first = inFlight.get(identity);
            if (first != null) {
                onDuplicate.run();
                return first;
            }
            first = new CompletableFuture<>();
            inFlight.put(identity, first);
        }
        CompletableFuture<T> done = first;
        answer.get().whenComplete((value, error) -> settle(identity, done, value, error));
        return done;
    }

    private void settle(Identity identity, CompletableFuture<T> done, T value, Throwable error) {
        synchronized (this) {
            inFlight.remove(identity);
            if (error == null) {
                answered.put(identity, true);
            }
        }
        if (error == null) {
            done.complete(value);
        } else {
            done.completeExceptionally(error);
        }
    }
}
