package io.lapse.compensator;

import io.lapse.event.InvalidRecordException;
import io.lapse.store.OrderUpdate;
import io.lapse.store.StatusReader;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the raw records of one topic into order updates keyed by orderId, whatever key and partition they came with.
 * Invalid records, and records that fail to decode in any other way, are dropped: ingest already sends them to the
 * dead-letter topic (one dead letter per bad record), and one bad record must not stop the compensator.
 */
final class DecodeStatus implements Processor<byte[], byte[], String, OrderUpdate> {

    private static final Logger log = LoggerFactory.getLogger(DecodeStatus.class);

    private final String topic;
    private final StatusReader.Read reader;
    private ProcessorContext<String, OrderUpdate> context;

    DecodeStatus(String topic, StatusReader.Read reader) {
        this.topic = topic;
        this.reader = reader;
    }

    @Override
    public void init(ProcessorContext<String, OrderUpdate> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        OrderUpdate update;
        try {
            update = reader.read(record.key(), record.value(), record.timestamp(), context.currentSystemTimeMs());
        } catch (InvalidRecordException e) {
            log.debug("dropped an invalid record of {}: {}", topic, e.getMessage());
            return;
        } catch (RuntimeException e) {
            // any bytes at all: an exception escaping here would kill the stream thread, and its replacement would
            // meet the same record again, for ever
            log.debug("dropped an unreadable record of {}: {}", topic, e.toString());
            return;
        }
        if (update != null) {
            context.forward(record.withKey(update.orderId()).withValue(update));
        }
    }
}
