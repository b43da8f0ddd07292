package io.lapse.bench.peers.lapse;

import io.lapse.kafka.KafkaClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Reads every partition of a topic from its beginning on its own thread, without a group, and hands each record to
 * the caller with the wall-clock ms at which the poll returned it: when an application reading the topic would learn
 * of it.
 */
final class TopicTail implements AutoCloseable {

    /** Handles one record as received. */
    interface Handler {
        void record(ConsumerRecord<byte[], byte[]> record, long receivedMillis);
    }

    private static final Duration POLL = Duration.ofMillis(100);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Handler handler;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running = true;

    private TopicTail(KafkaConsumer<byte[], byte[]> consumer, Handler handler, String topic) {
        this.consumer = consumer;
        this.handler = handler;
        this.thread = new Thread(this::run, "peers-tail-" + topic);
    }

    static TopicTail start(KafkaClients clients, String topic, int partitions, Handler handler) {
        KafkaConsumer<byte[], byte[]> consumer = clients.consumer("peers-tail", "peers-tail-" + topic, Map.of());
        List<TopicPartition> all = IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartition(topic, p))
                .toList();
        consumer.assign(all);
        consumer.seekToBeginning(all);
        TopicTail tail = new TopicTail(consumer, handler, topic);
        tail.thread.start();
        return tail;
    }

    private void run() {
        try {
            while (running) {
                var records = consumer.poll(POLL);
                long now = System.currentTimeMillis();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    handler.record(record, now);
                }
            }
        } catch (WakeupException e) {
            // close() woke the poll
        } catch (RuntimeException e) {
            failure.set(e);
        } finally {
            consumer.close();
        }
    }

    /** Throws what stopped the reading thread, if anything did. */
    void check() {
        if (failure.get() != null) {
            throw new IllegalStateException("reading the topic failed", failure.get());
        }
    }

    @Override
    public void close() {
        if (running) {
            running = false;
            consumer.wakeup();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
