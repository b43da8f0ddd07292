package io.lapse.compensator;

import io.lapse.event.Decoded;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the raw records of one topic into mirror inputs keyed by orderId, whatever key and partition they came with.
 * A record that breaks the contract is skipped: one bad record must not stop the compensator, and its one dead letter
 * is written by the service that acts on it (ingest for pushes and pull results, the puller for expiries), so that
 * on-call sees one letter per bad record and a redrive publishes it once.
 */
final class DecodeStatus implements Processor<byte[], byte[], String, MirrorInput> {

    private static final Logger log = LoggerFactory.getLogger(DecodeStatus.class);

    private final String topic;
    private final RecordDecoder decoder;
    private ProcessorContext<String, MirrorInput> context;

    DecodeStatus(String topic, RecordDecoder decoder) {
        this.topic = topic;
        this.decoder = decoder;
    }

    @Override
    public void init(ProcessorContext<String, MirrorInput> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        Decoded<MirrorInput> input = Decoded.of(
                () -> decoder.decode(record.key(), record.value(), record.timestamp(), context.currentSystemTimeMs()));
        if (input.isRejected()) {
            RecordMetadata source = context.recordMetadata().orElseThrow();
            log.warn("skipped {}-{}@{}: {}", topic, source.partition(), source.offset(), input.rejection());
            return;
        }
        if (input.value() != null) {
            // a record of its own rather than withKey(…).withValue(…), which copy the headers twice: the mirror
            // reads none
            context.forward(new Record<>(input.value().orderId(), input.value(), record.timestamp()));
        }
    }
}
