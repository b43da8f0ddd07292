package io.lapse.puller;

import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.store.OrderView;
import java.time.Clock;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers expiries, each once (see {@link AnswerOnce}): skips those Redis shows a newer status or an end for, pulls the others on the
 * bulkhead's pull threads, and has every PullResult published. A final expiry's pull waits for upstream's answer,
 * held off the pull threads ({@link FinalAttemptHold}).
 */
final class PullDispatcher {

    private static final Logger log = LoggerFactory.getLogger(PullDispatcher.class);
    private static final Executor RESUBMIT = CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS);

    private final ResilientUpstream upstream;
    private final ThreadPoolBulkhead pullThreads;
    private final ResultPublisher publisher;
    private final AnswerOnce once;
    private final FinalAttemptHold hold;
    private final Clock clock;
    private final BooleanSupplier running;

    PullDispatcher(
            ResilientUpstream upstream,
            ThreadPoolBulkhead pullThreads,
            ResultPublisher publisher,
            AnswerOnce once,
            FinalAttemptHold hold,
            Clock clock,
            BooleanSupplier running) {
        this.upstream = upstream;
        this.pullThreads = pullThreads;
        this.publisher = publisher;
        this.once = once;
        this.hold = hold;
        this.clock = clock;
        this.running = running;
    }

    /** @return completes once Kafka acknowledged the expiry's answer */
    CompletableFuture<Void> answer(ConsumerRecord<byte[], byte[]> record, ExpiryReading reading, OrderView view) {
        TimerExpired expiry = reading.expiry();
        return once.answer(expiry, reading.copyOf(), () -> {
            if (view.hasNewsSince(expiry.lastSeen())) {
                return publisher.publish(record, PullResult.skipped(expiry, clock.millis()));
            }
            CompletableFuture<PullOutcome> pulled = submit(expiry, upstream::pull);
            if (expiry.finalAttempt()) {
                // after a final expiry nothing pulls the order again: giving up waits for an answer from upstream
                pulled = pulled.thenCompose(
                        first -> hold.untilAnswered(expiry, first, () -> submit(expiry, upstream::tryHeldAgain)));
            }
            return pulled.thenCompose(outcome -> publisher.publish(record, outcome.toResult(expiry, clock.millis())));
        });
    }

    /** How a pull asks upstream: a first pull, or one more try of a held one. */
    @FunctionalInterface
    private interface Request {
        PullOutcome ask(String orderId) throws InterruptedException;
    }

    /** The loop reads only while the bulkhead has room; should it be full nonetheless, the pull waits its turn. */
    private CompletableFuture<PullOutcome> submit(TimerExpired expiry, Request request) {
        try {
            return pullThreads.submit(() -> pull(expiry, request)).toCompletableFuture();
        } catch (BulkheadFullException e) {
            if (!running.getAsBoolean()) {
                return CompletableFuture.failedFuture(abandoned(expiry));
            }
            return CompletableFuture.supplyAsync(() -> null, RESUBMIT).thenCompose(nothing -> submit(expiry, request));
        }
    }

    private PullOutcome pull(TimerExpired expiry, Request request) {
        PullOutcome outcome;
        try {
            outcome = request.ask(expiry.orderId());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw abandoned(expiry);
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException e) {
            log.error("pull of order {} failed unexpectedly", expiry.orderId(), e);
            outcome = PullOutcome.failed("puller error: " + e);
        }
        // an interrupted retry wait ends the pull early; its FAILED outcome would be the puller's doing, not upstream's
        if (Thread.currentThread().isInterrupted()) {
            throw abandoned(expiry);
        }
        return outcome;
    }

    private static CancellationException abandoned(TimerExpired expiry) {
        return new CancellationException("puller closing: pull of order " + expiry.orderId() + " abandoned");
    }
}
