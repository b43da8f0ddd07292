package io.lapse.puller;

import io.github.resilience4j.core.IntervalFunction;
import io.lapse.event.TimerExpired;
import io.lapse.store.OrderView;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the pulls of final expiries that upstream did not answer. After a final expiry nothing pulls the order again,
 * so its pull is tried again, with a growing backoff, until upstream answers. The wait takes no thread (it is a
 * delayed task), so orders upstream never answers cannot take the pull threads from every other order; before each
 * try Redis is asked, and an order that has had news since (a push, its end, {@code lapse cancel}) is let go, SKIPPED.
 */
final class FinalAttemptHold {

    private static final Logger log = LoggerFactory.getLogger(FinalAttemptHold.class);

    private final IntervalFunction backoff;
    private final Function<String, CompletableFuture<OrderView>> views;
    private final BooleanSupplier running;
    private final AtomicInteger held = new AtomicInteger();

    /**
     * @param backoff the wait before each further try, by try
     * @param views   what Redis knows of an order now
     * @param running false once the puller closes: then a held pull is abandoned, its offset left uncommitted
     */
    FinalAttemptHold(
            IntervalFunction backoff, Function<String, CompletableFuture<OrderView>> views, BooleanSupplier running) {
        this.backoff = backoff;
        this.views = views;
        this.running = running;
    }

    /**
     * @param first the outcome of the pull's first try
     * @param pull  tries the pull once more (on the pull threads)
     */
    CompletableFuture<PullOutcome> untilAnswered(
            TimerExpired expiry, PullOutcome first, Supplier<CompletableFuture<PullOutcome>> pull) {
        if (!first.unanswered()) {
            return CompletableFuture.completedFuture(first);
        }
        log.warn(
                "upstream did not answer the final pull of order {} ({}); trying again until it does, or the order "
                        + "has news (lapse cancel lets it go)",
                expiry.orderId(),
                first.error());
        held.incrementAndGet();
        CompletableFuture<PullOutcome> answered = new CompletableFuture<>();
        tryAgainLater(expiry, pull, 1, answered);
        return answered.whenComplete((outcome, error) -> held.decrementAndGet());
    }

    /** Final pulls held now. */
    int held() {
        return held.get();
    }

    private void tryAgainLater(
            TimerExpired expiry,
            Supplier<CompletableFuture<PullOutcome>> pull,
            int tries,
            CompletableFuture<PullOutcome> answered) {
        CompletableFuture.runAsync(
                        () -> {}, CompletableFuture.delayedExecutor(backoff.apply(tries), TimeUnit.MILLISECONDS))
                .thenCompose(nothing -> running.getAsBoolean()
                        ? views.apply(expiry.orderId())
                        : CompletableFuture.failedFuture(new CancellationException(
                                "puller closing: held pull of order " + expiry.orderId() + " abandoned")))
                .thenCompose(view -> view.hasNewsSince(expiry.lastSeen())
                        ? CompletableFuture.completedFuture(PullOutcome.skipped())
                        : pull.get())
                .whenComplete((outcome, error) -> {
                    if (!running.getAsBoolean()) {
                        answered.completeExceptionally(
                                error != null
                                        ? error
                                        : new CancellationException("puller closing: held pull of order "
                                                + expiry.orderId() + " abandoned"));
                    } else if (error != null || outcome.unanswered()) {
                        if (error != null) {
                            log.warn(
                                    "held pull of order {} could not be tried: {}", expiry.orderId(), error.toString());
                        }
                        tryAgainLater(expiry, pull, tries + 1, answered);
                    } else {
                        answered.complete(outcome);
                    }
                });
    }
}
