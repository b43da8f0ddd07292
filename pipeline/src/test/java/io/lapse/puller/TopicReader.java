package io.lapse.puller;

import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.event.JsonCodec;
import io.lapse.kafka.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** Reads one topic from its start, as a test's eyes on what the puller wrote. */
final class TopicReader<T> implements AutoCloseable {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final JsonCodec<T> codec;
    private final List<T> read = new ArrayList<>();

    TopicReader(LapseConfig config, String topic, JsonCodec<T> codec) {
        this.consumer =
                new KafkaClients(config.kafka()).consumer("reader-" + UUID.randomUUID(), "test-reader", Map.of());
        this.codec = codec;
        consumer.subscribe(List.of(topic));
    }

    /** The first value that matches, waiting for it if it has not arrived yet. */
    T first(Predicate<T> match) {
        return await().atMost(PATIENCE)
                .pollInSameThread()
                .until(
                        () -> {
                            pollOnce();
                            return read.stream().filter(match).findFirst();
                        },
                        found -> found.isPresent())
                .orElseThrow();
    }

    /** Every value that matches, once at least {@code count} of them arrived. */
    List<T> atLeast(int count, Predicate<T> match) {
        return await().atMost(PATIENCE)
                .pollInSameThread()
                .until(
                        () -> {
                            pollOnce();
                            return read.stream().filter(match).toList();
                        },
                        found -> found.size() >= count);
    }

    /** Every value that matches among all the topic holds now, read to its end. */
    List<T> all(Predicate<T> match) {
        await().atMost(PATIENCE).pollInSameThread().until(() -> {
            pollOnce();
            Set<TopicPartition> assigned = consumer.assignment();
            return !assigned.isEmpty()
                    && consumer.endOffsets(assigned).entrySet().stream()
                            .allMatch(end -> consumer.position(end.getKey()) >= end.getValue());
        });
        return read.stream().filter(match).toList();
    }

    private void pollOnce() {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
            read.add(codec.decode(record.value()));
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
