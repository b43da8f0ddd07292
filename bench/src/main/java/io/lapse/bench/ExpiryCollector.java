package io.lapse.bench;

import io.lapse.event.InvalidRecordException;
import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaClients;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.record.TimestampType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * Reads the expired topic from its beginning while a run goes on. Its records carry the broker's append time (the
 * topic is created with LogAppendTime), which is when the expiry was acknowledged by Kafka; a record with any other
 * timestamp type is counted, because its lateness would mean nothing.
 */
final class ExpiryCollector implements AutoCloseable {

    /**
     * One expiry as read back: {@code orderId} is empty when the value was not a valid TimerExpired.
     *
     * @param firedAt    when the timer claimed it, by Redis's clock
     * @param appendTime when Kafka appended it
     */
    record Expiry(String orderId, long deadline, int attempt, long firedAt, long appendTime) {
    }

    private static final Duration POLL = Duration.ofMillis(100);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Queue<Expiry> expiries = new ConcurrentLinkedQueue<>();
    private final AtomicLong notAppendTime = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    private ExpiryCollector(KafkaConsumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
        this.thread = new Thread(this::run, "bench-expiries");
    }

    /** Reads the topic's partitions without a consumer group's help and never commits. */
    static ExpiryCollector start(KafkaClients clients, String topic, int partitions) {
        KafkaConsumer<byte[], byte[]> consumer = clients.consumer("bench-expiry-reader", "bench-expiry-reader", Map.of());
        List<TopicPartition> all = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
        consumer.assign(all);
        consumer.seekToBeginning(all);
        ExpiryCollector collector = new ExpiryCollector(consumer);
        collector.thread.start();
        return collector;
    }

    private void run() {
        try {
            while (running) {
                consumer.poll(POLL).forEach(this::collect);
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private void collect(ConsumerRecord<byte[], byte[]> record) {
        if (record.timestampType() != TimestampType.LOG_APPEND_TIME) {
            notAppendTime.incrementAndGet();
        }
        try {
            TimerExpired event = JsonCodec.TIMER_EXPIRED.decode(record.value());
            expiries.add(new Expiry(event.orderId(), event.deadline(), event.attempt(), event.firedAt(),
                    record.timestamp()));
        } catch (InvalidRecordException e) {
            expiries.add(new Expiry("", 0, 0, 0, record.timestamp()));
        }
    }

    List<Expiry> expiries() {
        return List.copyOf(expiries);
    }

    long withoutAppendTime() {
        return notAppendTime.get();
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
