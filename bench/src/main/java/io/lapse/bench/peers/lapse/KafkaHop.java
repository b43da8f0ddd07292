package io.lapse.bench.peers.lapse;

import io.lapse.config.LapseConfig;
import io.lapse.devstack.KafkaBroker;
import io.lapse.kafka.KafkaClients;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Kafka hop alone: records produced at the workload's rate with the settings Lapse's pushes are sent with in the
 * benchmark (acks=1, linger 5 ms), read back by a plain consumer; the latency is from the send (the record's create
 * time) to the poll that returned it. With the ideal poller, the floor of any design that reads pushes from Kafka.
 */
public final class KafkaHop {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final int PARTITIONS = 6;
    /** The first second is the clients connecting and fetching metadata, which a running service has behind it */
    private static final long WARMUP_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final long HIGHEST_MILLIS = 3_600_000;
    private static final long DRAIN_MILLIS = 30_000;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private KafkaHop() {}

    /** Produce → consume latency in ms at {@code perSecond} records/s for {@code duration}. */
    public static Histogram measure(KafkaBroker broker, double perSecond, Duration duration)
            throws InterruptedException {
        String topic = "peers-hop-" + RUNS.incrementAndGet();
        broker.createTopic(topic, PARTITIONS);
        KafkaClients clients = new KafkaClients(LapseConfig.load(null, Map.of())
                .with(Map.of("kafka.bootstrap.servers", broker.bootstrapServers()))
                .kafka());
        Histogram latency = new Histogram(HIGHEST_MILLIS, 3);
        AtomicInteger received = new AtomicInteger();
        long measureFrom = System.currentTimeMillis() + TimeUnit.NANOSECONDS.toMillis(WARMUP_NANOS);
        int sent = 0;
        try (TopicTail tail = TopicTail.start(clients, topic, PARTITIONS, (record, at) -> {
                    if (record.timestamp() >= measureFrom) {
                        synchronized (latency) {
                            latency.recordValue(Math.max(0, Math.min(at - record.timestamp(), HIGHEST_MILLIS)));
                        }
                    }
                    received.incrementAndGet();
                });
                KafkaProducer<byte[], byte[]> producer = clients.producer("peers-hop", LapseSystem.PRODUCER_SETTINGS)) {
            long start = System.nanoTime();
            long total = Math.round(perSecond * duration.toNanos() / 1e9);
            while (sent < total) {
                long due = Math.min(total, Math.round((System.nanoTime() - start) * perSecond / 1e9) + 1);
                for (; sent < due; sent++) {
                    producer.send(
                            new ProducerRecord<>(topic, Integer.toString(sent).getBytes(), new byte[16]));
                }
                LockSupport.parkNanos(1_000_000);
            }
            // no flush(): it has no timeout, and a broker that cannot keep up is a figure, not a hang
            long drainUntil = System.currentTimeMillis() + DRAIN_MILLIS;
            while (received.get() < sent && System.currentTimeMillis() < drainUntil) {
                Thread.sleep(10);
            }
            tail.check();
            producer.close(CLOSE_TIMEOUT);
        }
        if (received.get() < sent) {
            throw new IllegalStateException("the hop lost records: " + received.get() + " of " + sent + " read back");
        }
        synchronized (latency) {
            return latency.copy();
        }
    }
}
