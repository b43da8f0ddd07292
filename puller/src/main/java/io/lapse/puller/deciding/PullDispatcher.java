package io.lapse.puller;

import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.store.OrderView;
import java.time.Clock;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers expiries, each once (see {@link AnswerOnce}): skips those Redis shows a newer status or an end for, and
 * those this puller pulled OK at or after their deadline ({@link RecentPulls}); pulls the others on the pull threads,
 * earliest silence first ({@link PullQueue}); and has every PullResult published. Answers one expiry of an order at a
 * time ({@link OrderTurns}), so that in a storm, where several attempts of one silent order are read at once, one
 * call answers them all: the others wait for its OK, then are skipped. An on-call copy is pulled as it asks, whatever
 * was pulled before. A final expiry's pull waits for upstream's answer, held off the pull threads
 * ({@link FinalAttemptHold}). A first pull may go to upstream together with others in one bulk request
 * ({@link BulkPulls}); each still gets its own outcome and its own result, and the further tries of a held one go alone.
 */
final class PullDispatcher {

    private static final Logger log = LoggerFactory.getLogger(PullDispatcher.class);

    private final ResilientUpstream upstream;
    private final PullQueue pullThreads;
    private final ResultPublisher publisher;
    private final AnswerOnce once;
    private final OrderTurns turns;
    private final RecentPulls recent;
    private final Function<String, CompletableFuture<OrderView>> views;
    private final FinalAttemptHold hold;
    private final Runnable onAlreadyPulled;
    private final Clock clock;

    /**
     * @param views           what Redis knows of an order now
     * @param onAlreadyPulled counts an expiry skipped because its order was pulled OK after its deadline
     */
    PullDispatcher(
            ResilientUpstream upstream,
            PullQueue pullThreads,
            ResultPublisher publisher,
            AnswerOnce once,
            OrderTurns turns,
            RecentPulls recent,
            Function<String, CompletableFuture<OrderView>> views,
            FinalAttemptHold hold,
            Runnable onAlreadyPulled,
            Clock clock) {
        this.upstream = upstream;
        this.pullThreads = pullThreads;
        this.publisher = publisher;
        this.once = once;
        this.turns = turns;
        this.recent = recent;
        this.views = views;
        this.hold = hold;
        this.onAlreadyPulled = onAlreadyPulled;
        this.clock = clock;
    }

    /** @return completes once Kafka acknowledged the expiry's answer */
    CompletableFuture<Void> answer(ConsumerRecord<byte[], byte[]> record, ExpiryReading reading, OrderView view) {
        TimerExpired expiry = reading.expiry();
        return once.answer(expiry, reading.copyOf(), () -> {
            if (expiry.source() == TimerExpired.Source.MANUAL) {
                // on-call fired the order to hear from upstream itself: its pushes may be what they doubt
                return pullAndPublish(record, expiry);
            }
            if (view.hasNewsSince(expiry.lastSeen())) {
                return skip(record, expiry);
            }
            if (reading.copyOf() != null) {
                // on-call copied the expiry to have the order pulled again: an earlier pull does not answer it
                return pullAndPublish(record, expiry);
            }
            return turns.inTurn(expiry.orderId(), waited -> answerInTurn(record, expiry, waited));
        });
    }

    private CompletableFuture<Void> answerInTurn(
            ConsumerRecord<byte[], byte[]> record, TimerExpired expiry, boolean waited) {
        if (recent.answered(expiry)) {
            return skip(record, expiry).thenRun(onAlreadyPulled);
        }
        if (!waited) {
            return pullAndPublish(record, expiry);
        }
        // the order may have had news while this expiry waited for the answer before it; Redis not answering is no
        // reason to leave the expiry unanswered, so then it is pulled
        return views.apply(expiry.orderId())
                .handle((now, error) -> error == null && now != null && now.hasNewsSince(expiry.lastSeen()))
                .thenCompose(news -> news ? skip(record, expiry) : pullAndPublish(record, expiry));
    }

    private CompletableFuture<Void> skip(ConsumerRecord<byte[], byte[]> record, TimerExpired expiry) {
        return publisher
                .publish(record, PullResult.skipped(expiry, clock.millis()))
                .thenAccept(published -> {});
    }

    private CompletableFuture<Void> pullAndPublish(ConsumerRecord<byte[], byte[]> record, TimerExpired expiry) {
        CompletableFuture<PullOutcome> pulled = submit(expiry, upstream::pull, true);
        if (expiry.finalAttempt()) {
            // after a final expiry nothing pulls the order again: giving up waits for an answer from upstream
            pulled = pulled.thenCompose(
                    first -> hold.untilAnswered(expiry, first, () -> submit(expiry, upstream::tryHeldAgain, false)));
        }
        return pulled.thenCompose(outcome -> publisher.publish(record, outcome.toResult(expiry, clock.millis())))
                .thenAccept(recent::published);
    }

    /** How a pull asks upstream: a first pull, or one more try of a held one. */
    @FunctionalInterface
    private interface Request {
        PullOutcome ask(String orderId) throws InterruptedException;
    }

    /** @param mayGoTogether whether the pull may go with others in one bulk request, rather than alone */
    private CompletableFuture<PullOutcome> submit(TimerExpired expiry, Request request, boolean mayGoTogether) {
        return pullThreads.submit(expiry, () -> pull(expiry, request), mayGoTogether);
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
