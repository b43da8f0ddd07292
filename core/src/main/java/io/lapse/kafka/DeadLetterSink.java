package io.lapse.kafka;

import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.lapse.internal.Exceptions;
import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends records a service cannot process to the dead-letter topic with the reason: whole, or a bounded prefix of a
 * large one (see {@link DeadLetter}), so that no record can make its own dead letter fail.
 */
public final class DeadLetterSink {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterSink.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Clock clock;
    private final Counter written;

    public DeadLetterSink(
            Producer<byte[], byte[]> producer, String topic, Clock clock, MeterRegistry registry, String service) {
        this.producer = producer;
        this.topic = topic;
        this.clock = clock;
        this.written = Counter.builder(MetricNames.DLQ_RECORDS)
                .tag("service", service)
                .description("Records written to the dead-letter topic")
                .register(registry);
    }

    /** Completes once Kafka acknowledged the dead letter; only then may the source offset be committed. */
    public CompletableFuture<Void> send(ConsumerRecord<byte[], byte[]> source, String reason) {
        String key = source.key() == null ? null : new String(source.key(), StandardCharsets.UTF_8);
        DeadLetter letter = DeadLetter.of(
                reason, source.topic(), source.partition(), source.offset(), key, source.value(), clock.millis());
        log.warn(
                "dead letter from {}-{}@{} (key {}): {}",
                source.topic(),
                source.partition(),
                source.offset(),
                letter.key(),
                letter.reason());
        byte[] recordKey = source.key() == null
                ? null
                : Arrays.copyOf(source.key(), Math.min(source.key().length, DeadLetter.MAX_TEXT_CHARS));
        return send(recordKey, letter).exceptionallyCompose(error -> {
            if (!(Exceptions.unwrap(error) instanceof RecordTooLargeException)) {
                return CompletableFuture.failedFuture(error);
            }
            log.warn(
                    "the dead letter of {}-{}@{} is too large for {}; sending it without the value",
                    letter.sourceTopic(),
                    letter.partition(),
                    letter.offset(),
                    topic);
            return send(recordKey, letter.withoutValue(source.value() == null ? 0 : source.value().length));
        });
    }

    private CompletableFuture<Void> send(byte[] key, DeadLetter letter) {
        return KafkaSend.send(producer, new ProducerRecord<>(topic, key, JsonCodec.DEAD_LETTER.encode(letter)))
                .thenAccept(meta -> written.increment());
    }
}
