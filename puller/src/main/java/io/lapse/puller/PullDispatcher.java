package io.lapse.puller;

import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.store.OrderView;
import java.time.Clock;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers expiries, each once (see {@link AnswerOnce}): skips those Redis shows a newer status or an end for, pulls the others on the
 * pull threads, earliest silence first ({@link PullQueue}), and has every PullResult published. A final expiry's pull waits for upstream's answer,
 * held off the pull threads ({@link FinalAttemptHold}).
 */
final class PullDispatcher {

    private static final Logger log = LoggerFactory.getLogger(PullDispatcher.class);
    private final ResilientUpstream upstream;
    private final PullQueue pullThreads;
    private final ResultPublisher publisher;
    private final AnswerOnce once;
    private final FinalAttemptHold hold;
    private final Clock clock;

    PullDispatcher(
            ResilientUpstream upstream,
            PullQueue pullThreads,
            ResultPublisher publisher,
            AnswerOnce once,
            FinalAttemptHold hold,
            Clock clock) {
        this.upstream = upstream;
        this.pullThreads = pullThreads;
        this.publisher = publisher;
        this.once = once;
        this.hold = hold;
        this.clock = clock;
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

    private CompletableFuture<PullOutcome> submit(TimerExpired expiry, Request request) {
        return pullThreads.submit(expiry, () -> pull(expiry, request));
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
