package io.lapse.puller.deciding;

import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.internal.Exceptions;
import io.lapse.puller.asking.Asking;
import io.lapse.puller.asking.Pull;
import io.lapse.puller.asking.PullOutcome;
import io.lapse.puller.publishing.Parking;
import io.lapse.puller.publishing.ResultPublisher;
import io.lapse.store.timers.OrderView;
import java.time.Clock;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decides what each expiry needs, and sees it through: answered once ({@link AnswerOnce}); SKIPPED when Redis shows a
 * newer status or the order's end, or when this puller pulled the order OK at or after its deadline ({@link
 * RecentPulls}); otherwise asked of upstream ({@link Asking}), one expiry of an order at a time ({@link OrderTurns}),
 * so that in a storm, where several attempts of one silent order are read at once, one call answers them all: the
 * others wait for its OK, then are skipped. An on-call copy is pulled as it asks, whatever was pulled before.
 *
 * <p>Upstream's answer (OK, NOT_FOUND, or FAILED for a refusal about the order alone) is published ({@link
 * ResultPublisher}); a pull upstream did not answer, final or not, is parked ({@link Parking}) and read again when due,
 * with the requests it had, and is never FAILED for want of an answer. So an outage uses up no attempt: whatever
 * attempts fired meanwhile wait, and once upstream answers, the first pulled answers the others. Redis is asked again
 * for each parked expiry when it comes back: {@code lapse cancel}, a push or the order's end lets it go, SKIPPED.
 */
public final class PullDispatcher {

    /** How an expiry was seen through. */
    public enum Settled {
        /** Its result is published (or it needed none: a duplicate). */
        ANSWERED,
        /** It waits on the parked topic. */
        PARKED
    }

    private final Asking upstream;
    private final ResultPublisher publisher;
    private final Parking parking;
    private final AnswerOnce<Settled> once;
    private final OrderTurns<Settled> turns;
    private final RecentPulls recent;
    private final Function<String, CompletableFuture<OrderView>> views;
    private final Runnable onAlreadyPulled;
    private final BooleanSupplier running;
    private final Clock clock;

    /**
     * @param views           what Redis knows of an order now
     * @param onAlreadyPulled counts an expiry skipped because its order was pulled OK after its deadline
     * @param running         false once the puller closes: a pull it cut short is parked, not lost
     */
    public PullDispatcher(
            Asking upstream,
            ResultPublisher publisher,
            Parking parking,
            AnswerOnce<Settled> once,
            OrderTurns<Settled> turns,
            RecentPulls recent,
            Function<String, CompletableFuture<OrderView>> views,
            Runnable onAlreadyPulled,
            BooleanSupplier running,
            Clock clock) {
        this.upstream = upstream;
        this.publisher = publisher;
        this.parking = parking;
        this.once = once;
        this.turns = turns;
        this.recent = recent;
        this.views = views;
        this.onAlreadyPulled = onAlreadyPulled;
        this.running = running;
        this.clock = clock;
    }

    /** One record read: an expiry as the timer published it, or as it was parked. */
    public record Read(
            ConsumerRecord<byte[], byte[]> record, TimerExpired expiry, String copyOf, int visits, int asked) {}

    /** @return completes once Kafka acknowledged the expiry's answer, or its parked record */
    public CompletableFuture<Settled> answer(Read read, OrderView view) {
        TimerExpired expiry = read.expiry();
        return once.answer(expiry, read.copyOf(), read.visits(), () -> {
            if (expiry.source() == TimerExpired.Source.MANUAL) {
                // on-call fired the order to hear from upstream itself: its pushes may be what they doubt
                return pull(read);
            }
            if (view.hasNewsSince(expiry.lastSeen())) {
                return skip(read);
            }
            if (read.copyOf() != null) {
                // on-call copied the expiry to have the order pulled again: an earlier pull does not answer it
                return pull(read);
            }
            return turns.inTurn(expiry.orderId(), waited -> answerInTurn(read, waited));
        });
    }

    private CompletableFuture<Settled> answerInTurn(Read read, boolean waited) {
        TimerExpired expiry = read.expiry();
        if (recent.answered(expiry)) {
            return skip(read).thenApply(settled -> {
                onAlreadyPulled.run();
                return settled;
            });
        }
        if (!waited) {
            return pull(read);
        }
        // the order may have had news while this expiry waited for the answer before it; Redis not answering is no
        // reason to leave the expiry unanswered, so then it is pulled
        return views.apply(expiry.orderId())
                .handle((now, error) -> error == null && now != null && now.hasNewsSince(expiry.lastSeen()))
                .thenCompose(news -> news ? skip(read) : pull(read));
    }

    private CompletableFuture<Settled> skip(Read read) {
        return publisher
                .publish(read.record(), PullResult.skipped(read.expiry(), clock.millis()))
                .thenApply(published -> Settled.ANSWERED);
    }

    private CompletableFuture<Settled> pull(Read read) {
        Pull pull = new Pull(read.expiry(), read.asked());
        return upstream.ask(pull)
                .exceptionallyCompose(error -> stopped(error)
                        ? CompletableFuture.completedFuture(
                                PullOutcome.unanswered("the puller stopped before upstream answered"))
                        : CompletableFuture.failedFuture(error))
                .thenCompose(outcome -> outcome.answers()
                        ? publisher
                                .publish(read.record(), outcome.toResult(read.expiry(), clock.millis()))
                                .thenApply(result -> {
                                    recent.published(result);
                                    return Settled.ANSWERED;
                                })
                        : parking.park(read.record(), read.visits(), pull.asked(), outcome.error())
                                .thenApply(parked -> Settled.PARKED));
    }

    /** A pull the closing puller cut short is parked, so that what was answered behind it need not be read again. */
    private boolean stopped(Throwable error) {
        return !running.getAsBoolean() && Exceptions.unwrap(error) instanceof CancellationException;
    }
}
