package io.lapse.kafka;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/** A Kafka send as a future or with a callback that hears of every failure: the one way Lapse sends. */
public final class KafkaSend {

    private KafkaSend() {}

    /**
     * Completes when Kafka acknowledged the record, or fails when it did not. A send that throws at once (no
     * metadata within max.block.ms, a closed producer, a record too large to serialize) fails the future as well,
     * so callers handle every failure in one place.
     */
    public static <K, V> CompletableFuture<RecordMetadata> send(Producer<K, V> producer, ProducerRecord<K, V> record) {
        CompletableFuture<RecordMetadata> acked = new CompletableFuture<>();
        send(producer, record, (meta, error) -> {
            if (error != null) {
                acked.completeExceptionally(error);
            } else {
                acked.complete(meta);
            }
        });
        return acked;
    }

    /**
     * The same for a caller that sends thousands at once and needs no future per record (the timer in a storm): the
     * callback learns of every failure, a send that throws at once included.
     */
    public static <K, V> void send(Producer<K, V> producer, ProducerRecord<K, V> record, Callback callback) {
        try {
            producer.send(record, callback);
        } catch (RuntimeException e) {
            callback.onCompletion(null, e);
        }
    }
}
