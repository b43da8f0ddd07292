package io.lapse.compensator;

import io.lapse.event.DeadLetter;
import io.lapse.event.InvalidRecordException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * Turns the raw records of one topic into mirror inputs keyed by orderId, whatever key and partition they came with.
 * A record that breaks the contract becomes a dead letter: one bad record must not stop the compensator, and with
 * exactly-once processing the dead letter is written once, together with the offsets behind it.
 */
final class DecodeStatus implements Processor<byte[], byte[], String, Decoded> {

    private static final Logger log = LoggerFactory.getLogger(DecodeStatus.class);

    private final String topic;
    private final RecordDecoder decoder;
    private ProcessorContext<String, Decoded> context;

    DecodeStatus(String topic, RecordDecoder decoder) {
        this.topic = topic;
        this.decoder = decoder;
    }

    @Override
    public void init(ProcessorContext<String, Decoded> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        MirrorInput input;
        try {
            input = decoder.decode(record.key(), record.value(), record.timestamp(), context.currentSystemTimeMs());
        } catch (InvalidRecordException e) {
            reject(record, e.getMessage());
            return;
        }
        if (input != null) {
            context.forward(record.withKey(input.orderId()).withValue(Decoded.of(input)));
        }
    }

    private void reject(Record<byte[], byte[]> record, String reason) {
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        RecordMetadata source = context.recordMetadata().orElseThrow();
        log.warn("dead letter from {}-{}@{} (key {}): {}", topic, source.partition(), source.offset(), key, reason);
        DeadLetter letter = DeadLetter.of(reason, topic, source.partition(), source.offset(), key, record.value(),
                context.currentSystemTimeMs());
        context.forward(record.withKey(key).withValue(Decoded.rejected(letter)));
    }
}
