package io.lapse.faults.fault;

import io.lapse.faults.observe.RecordRef;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends poison while it runs: one of every {@link PoisonKind} in turn to the push topic every period, and one framed
 * TimerExpired to the expired topic at the start. It keeps where Kafka put each record it acknowledged, since those
 * and only those must come back as dead letters; a send Kafka refused is counted apart.
 */
public final class PoisonInjector implements AutoCloseable {

    private final Producer<byte[], byte[]> producer;
    private final String pushTopic;
    private final String expiredTopic;
    private final String idPrefix;
    private final Queue<RecordRef> acknowledged = new ConcurrentLinkedQueue<>();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger sent = new AtomicInteger();
    private final ScheduledExecutorService schedule =
            Executors.newSingleThreadScheduledExecutor(task -> new Thread(task, "faults-poison"));

    public PoisonInjector(Producer<byte[], byte[]> producer, String pushTopic, String expiredTopic, String idPrefix) {
        this.producer = producer;
        this.pushTopic = pushTopic;
        this.expiredTopic = expiredTopic;
        this.idPrefix = idPrefix;
    }

    void start(Duration period) {
        long now = System.currentTimeMillis();
        send(new ProducerRecord<>(expiredTopic, null, PoisonKind.framedExpiry(idPrefix + "expired", now)));
        schedule.scheduleAtFixedRate(this::sendNext, 0, period.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** One record of every kind on the push topic now, and one framed TimerExpired on the expired topic. */
    public void burst() {
        send(new ProducerRecord<>(
                expiredTopic, null, PoisonKind.framedExpiry(idPrefix + sent.get(), System.currentTimeMillis())));
        for (int i = 0; i < PoisonKind.values().length; i++) {
            sendNext();
        }
    }

    private void sendNext() {
        int n = sent.getAndIncrement();
        PoisonKind kind = PoisonKind.values()[n % PoisonKind.values().length];
        String orderId = idPrefix + n;
        send(new ProducerRecord<>(pushTopic, kind.key(orderId), kind.value(orderId, System.currentTimeMillis())));
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        producer.send(record, (RecordMetadata metadata, Exception error) -> {
            if (error == null) {
                acknowledged.add(new RecordRef(metadata.topic(), metadata.partition(), metadata.offset()));
            } else {
                refused.incrementAndGet();
            }
        });
    }

    /** Stops sending and waits for Kafka's answers to what was sent. */
    @Override
    public void close() {
        schedule.shutdownNow();
        try {
            schedule.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.flush();
    }

    public List<RecordRef> acknowledged() {
        return List.copyOf(acknowledged);
    }

    public int refused() {
        return refused.get();
    }
}
