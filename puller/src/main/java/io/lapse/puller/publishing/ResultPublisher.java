package io.lapse.puller.publishing;

import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.internal.Exceptions;
import io.lapse.kafka.DeadLetterSink;
import io.lapse.kafka.KafkaSend;
import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * Publishes an expiry's PullResult to the pulled topic keyed by orderId, sending again until Kafka acknowledges it,
 * and counts it by outcome ({@code lapse_puller_pulls_total}). A FAILED result also goes to the dead-letter topic with
 * its reason; a result too large for Kafka becomes FAILED, so that it can neither be lost nor hold its partition's
 * commits back for ever.
 */
public final class ResultPublisher {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final DeadLetterSink deadLetters;
    private final Clock clock;
    private final Map<PullResult.Outcome, Counter> published = new EnumMap<>(PullResult.Outcome.class);
    private final BooleanSupplier running;

    /** @param running false once the puller closes: then a send Kafka refuses is not sent again */
    public ResultPublisher(
            Producer<byte[], byte[]> producer,
            String topic,
            DeadLetterSink deadLetters,
            Clock clock,
            MeterRegistry registry,
            BooleanSupplier running) {
        this.producer = producer;
        this.topic = topic;
        this.deadLetters = deadLetters;
        this.clock = clock;
        this.running = running;
        for (PullResult.Outcome outcome : PullResult.Outcome.values()) {
            published.put(
                    outcome,
                    Counter.builder(MetricNames.PULLER_PULLS)
                            .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                            .description("Expiries answered (result acknowledged by Kafka), by pull outcome")
                            .register(registry));
        }
    }

    /**
     * @return completes with the result published once Kafka acknowledged it (and the dead letter of a FAILED one):
     *     the one given, or the FAILED one that replaced it when it was too large
     */
    public CompletableFuture<PullResult> publish(ConsumerRecord<byte[], byte[]> expiry, PullResult result) {
        byte[] value = JsonCodec.PULL_RESULT.encode(result);
        CompletableFuture<Void> sent = untilAcked(
                        () -> send(
                                new ProducerRecord<>(topic, result.orderId().getBytes(StandardCharsets.UTF_8), value)),
                        "the pull result of order " + result.orderId())
                .thenRun(() -> published.get(result.outcome()).increment());
        CompletableFuture<PullResult> answered = sent.thenApply(acked -> result)
                .exceptionallyCompose(error -> Exceptions.unwrap(error) instanceof RecordTooLargeException
                        ? publish(expiry, tooLarge(result, value.length, Exceptions.unwrap(error)))
                        : CompletableFuture.failedFuture(error));
        if (result.outcome() != PullResult.Outcome.FAILED) {
            return answered;
        }
        CompletableFuture<Void> deadLetter = untilAcked(
                () -> deadLetters.send(expiry, "pull FAILED: " + result.error()),
                "the dead letter of the failed pull of order " + result.orderId());
        return answered.thenCombine(deadLetter, (published, acked) -> published);
    }

    private PullResult tooLarge(PullResult result, int bytes, Throwable error) {
        return new PullResult(
                result.orderId(),
                PullResult.Outcome.FAILED,
                null,
                clock.millis(),
                result.expiry(),
                "the pull result of " + bytes + " bytes is too large to publish: " + error.getMessage());
    }

    private CompletableFuture<Void> send(ProducerRecord<byte[], byte[]> record) {
        return KafkaSend.send(producer, record).thenApply(meta -> null);
    }

    private CompletableFuture<Void> untilAcked(Supplier<CompletableFuture<Void>> send, String what) {
        return Redelivery.untilAcked(send, what, running);
    }
}
