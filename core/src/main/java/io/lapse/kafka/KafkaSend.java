package io.lapse.kafka;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/** A Kafka send as a future, the one way Lapse sends. */
public final class KafkaSend {

    private KafkaSend() {}

    /**
     * Completes when Kafka acknowledged the record, or fails when it did not. A send that throws at once (no
     * metadata within max.block.ms, a closed producer, a record too large to serialize) fails the future as well,
     * so callers handle every failure in one place.
     */
    public static <K, V> CompletableFuture<RecordMetadata> send(Producer<K, V> producer, ProducerRecord<K, V> record) {
        CompletableFuture<RecordMetadata> acked = new CompletableFuture<>();
        try {
            producer.send(record, (meta, error) -> {
                if (error != null) {
                    acked.completeExceptionally(error);
                } else {
                    acked.complete(meta);
                }
            });
        } catch (RuntimeException e) {
            acked.completeExceptionally(e);
        }
        return acked;
    }
}
