package io.lapse.devstack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Records everything written to one topic, from its beginning, on a background thread, so that a test can wait for
 * what it expects to see. It reads without a consumer group and commits nothing.
 */
public final class TopicRecorder implements AutoCloseable {

    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Queue<ConsumerRecord<byte[], byte[]>> records = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    private TopicRecorder(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        this.consumer = consumer;
        this.thread = new Thread(this::run, "topic-recorder-" + topic);
    }

    /** Waits until the topic exists (someone else creates it), then records it from the beginning. */
    public static TopicRecorder start(String bootstrapServers, String topic) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        long deadline = System.nanoTime() + TOPIC_TIMEOUT.toNanos();
        List<PartitionInfo> partitions = consumer.partitionsFor(topic, TOPIC_TIMEOUT);
        while (partitions.isEmpty() && System.nanoTime() < deadline) {
            Sleep.briefly(Duration.ofMillis(100));
            partitions = consumer.partitionsFor(topic, TOPIC_TIMEOUT);
        }
        if (partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic " + topic + " did not appear within " + TOPIC_TIMEOUT);
        }
        List<TopicPartition> assigned = partitions.stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        TopicRecorder recorder = new TopicRecorder(consumer, topic);
        recorder.thread.start();
        return recorder;
    }

    private void run() {
        try {
            while (running) {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    public List<ConsumerRecord<byte[], byte[]>> records() {
        return List.copyOf(records);
    }

    /** Every value recorded so far, decoded. */
    public <T> List<T> values(Function<byte[], T> decode) {
        List<T> values = new ArrayList<>(records.size());
        records.forEach(r -> values.add(decode.apply(r.value())));
        return values;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
