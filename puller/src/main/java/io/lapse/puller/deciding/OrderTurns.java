package io.lapse.puller.deciding;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Answers one expiry of an order at a time: an expiry read while another of the same order is being answered waits
 * for that answer, then takes its turn, knowing it waited. So several attempts of one silent order in flight at once
 * (a storm's backlog holds them all) cost one call: the others see that call's OK once it is published. Only orders
 * with an answer in flight are remembered. Safe to use from any thread.
 */
public final class OrderTurns<T> {

    /** One expiry's answer, told whether it waited for another one's of the same order. */
    @FunctionalInterface
    interface Turn<T> {
        /** @return completes once the expiry's answer is acknowledged */
        CompletableFuture<T> take(boolean waited);
    }

    private final Map<String, CompletableFuture<T>> lastInLine = new HashMap<>();
    private final Executor afterWaiting;

    /**
     * @param afterWaiting runs a turn that waited: the answer it waited for completes on Kafka's I/O thread, which
     *                     must not block in a send
     */
    public OrderTurns(Executor afterWaiting) {
        this.afterWaiting = Objects.requireNonNull(afterWaiting, "afterWaiting");
    }

    /** @return completes as the turn's answer does, once the next in line may go */
    CompletableFuture<T> inTurn(String orderId, Turn<T> turn) {
        CompletableFuture<T> mine = new CompletableFuture<>();
        CompletableFuture<T> before;
        synchronized (this) {
            before = lastInLine.put(orderId, mine);
        }
        CompletableFuture<T> answered = before == null
                ? take(turn, false)
                // whether the one before was answered or abandoned, this one's turn comes
                : before.handleAsync((ok, error) -> null, afterWaiting).thenCompose(nothing -> take(turn, true));
        answered.whenComplete((value, error) -> {
            synchronized (this) {
                lastInLine.remove(orderId, mine);
            }
            if (error == null) {
                mine.complete(value);
            } else {
                mine.completeExceptionally(error);
            }
        });
        return mine;
    }

    /** Orders with an answer in flight. */
    synchronized int orders() {
        return lastInLine.size();
    }

    private static <T> CompletableFuture<T> take(Turn<T> turn, boolean waited) {
        try {
            return turn.take(waited);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
