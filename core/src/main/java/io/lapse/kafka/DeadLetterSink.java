package io.lapse.kafka;

import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;

/** Sends records a service cannot process to the dead-letter topic, whole, with the reason. */
public final class DeadLetterSink {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterSink.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Clock clock;
    private final Counter written;

    public DeadLetterSink(Producer<byte[], byte[]> producer, String topic, Clock clock, MeterRegistry registry,
                          String service) {
        this.producer = producer;
        this.topic = topic;
        this.clock = clock;
        this.written = Counter.builder("lapse.dlq.records").tag("service", service)
                .description("Records written to the dead-letter topic").register(registry);
    }

    /** Completes once Kafka acknowledged the dead letter; only then may the source offset be committed. */
    public CompletableFuture<Void> send(ConsumerRecord<byte[], byte[]> source, String reason) {
        String key = source.key() == null ? null : new String(source.key(), StandardCharsets.UTF_8);
        DeadLetter letter = DeadLetter.of(reason, source.topic(), source.partition(), source.offset(), key,
                source.value(), clock.millis());
        log.warn("dead letter from {}-{}@{} (key {}): {}", source.topic(), source.partition(), source.offset(), key,
                reason);
        return KafkaSend.send(producer, new ProducerRecord<>(topic, source.key(), JsonCodec.DEAD_LETTER.encode(letter)))
                .thenAccept(meta -> written.increment());
    }
}
