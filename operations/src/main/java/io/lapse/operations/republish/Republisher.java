package io.lapse.operations.republish;

import io.lapse.operations.kafka.Coordinate;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Publishes copies of records, each with the {@link CopyMark} of its original, and counts what Kafka acknowledged. */
public final class Republisher {

    /** What Kafka made of the copies. */
    public record Outcome(long published, long failed, String firstError) {}

    private final Producer<byte[], byte[]> producer;
    private final CopyLedger ledger;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    public Republisher(Producer<byte[], byte[]> producer, CopyLedger ledger) {
        this.producer = producer;
        this.ledger = ledger;
    }

    /**
     * @param partition the original's, so that the copy keeps its order among its key's records whichever
     *                  partitioner the original's producer used; null to let the key choose (another topic)
     * @param headers   the original's headers, or null when they are lost (a dead letter keeps none)
     * @param timestamp the original's: a copy is as old as what it copies, for every rule that goes by record time
     */
    public void send(
            String topic,
            Integer partition,
            byte[] key,
            byte[] value,
            Headers headers,
            long timestamp,
            Coordinate origin) {
        Headers marked = new RecordHeaders(headers == null ? new RecordHeaders().toArray() : headers.toArray());
        CopyMark.put(marked, origin);
        ledger.copiedNow(origin);
        try {
            producer.send(new ProducerRecord<>(topic, partition, timestamp, key, value, marked), (meta, error) -> {
                if (error == null) {
                    published.incrementAndGet();
                } else {
                    failed(error);
                }
            });
        } catch (KafkaException e) {
            failed(e);
        }
    }

    private void failed(Exception error) {
        failed.incrementAndGet();
        firstError.compareAndSet(null, error.toString());
    }

    /** Waits until Kafka has answered for every copy sent. */
    public Outcome finish() {
        producer.flush();
        return new Outcome(published.get(), failed.get(), firstError.get());
    }
}
