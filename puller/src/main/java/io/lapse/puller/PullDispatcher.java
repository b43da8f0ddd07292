package io.lapse.puller;

import io.lapse.event.JsonCodec;
import io.lapse.kafka.KafkaSend;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.store.OrderView;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * Answers expiries: skips those Redis shows a newer status or an end for, pulls the others on the pull threads, and
 * publishes every PullResult to the pulled topic keyed by orderId.
 */
final class PullDispatcher {

    private static final Logger log = LoggerFactory.getLogger(PullDispatcher.class);

    private final ResilientUpstream upstream;
    private final Executor pullThreads;
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Clock clock;
    private final PullerMetrics metrics;
    private final BooleanSupplier running;

    PullDispatcher(ResilientUpstream upstream, Executor pullThreads, Producer<byte[], byte[]> producer, String topic,
                   Clock clock, PullerMetrics metrics, BooleanSupplier running) {
        this.upstream = upstream;
        this.pullThreads = pullThreads;
        this.producer = producer;
        this.topic = topic;
        this.clock = clock;
        this.metrics = metrics;
        this.running = running;
    }

    /** @return completes once Kafka acknowledged the expiry's PullResult */
    CompletableFuture<Void> answer(TimerExpired expiry, OrderView view) {
        if (answeredSince(expiry, view)) {
            return publish(PullResult.skipped(expiry, clock.millis()));
        }
        return CompletableFuture.supplyAsync(() -> pull(expiry), pullThreads).thenCompose(this::publish);
    }

    /** A status newer than the one the timer counted from, or the order's end, already answers the expiry. */
    static boolean answeredSince(TimerExpired expiry, OrderView view) {
        return view.phase() == OrderView.Phase.ENDED
                || (view.lastSeen().isPresent() && view.lastSeen().getAsLong() > expiry.lastSeen());
    }

    private PullResult pull(TimerExpired expiry) {
        PullOutcome outcome;
        try {
            outcome = upstream.pull(expiry.orderId());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw abandoned(expiry);
        } catch (RuntimeException e) {
            log.error("pull of order {} failed unexpectedly", expiry.orderId(), e);
            outcome = PullOutcome.failed("puller error: " + e);
        }
        // an interrupted retry wait ends the pull early; its FAILED outcome would be the puller's doing, not upstream's
        if (Thread.currentThread().isInterrupted()) {
            throw abandoned(expiry);
        }
        return outcome.toResult(expiry, clock.millis());
    }

    private static CancellationException abandoned(TimerExpired expiry) {
        return new CancellationException("puller closing: pull of order " + expiry.orderId() + " abandoned");
    }

    private CompletableFuture<Void> publish(PullResult result) {
        metrics.pulled(result.outcome());
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic,
                result.orderId().getBytes(StandardCharsets.UTF_8), JsonCodec.PULL_RESULT.encode(result));
        return Redelivery.untilAcked(() -> KafkaSend.send(producer, record).thenApply(meta -> null),
                "the pull result of order " + result.orderId(), running);
    }
}
