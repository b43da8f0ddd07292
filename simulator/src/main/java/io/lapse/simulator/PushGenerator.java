package io.lapse.simulator;

import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceLoop;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes every pushing order's status to the push topic once per push interval, each order at its own phase of the
 * interval so that the load is even. Pacing follows the real time, while ts comes from the fleet's clock: a test may
 * move that clock ahead without causing a burst of pushes.
 */
public final class PushGenerator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PushGenerator.class);
    /** Bounds each loop iteration, so close() is prompt however long the interval. */
    private static final long LONGEST_NAP_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Fleet fleet;
    private final KafkaClients clients;
    private final String topic;
    private final Duration pushInterval;
    private final Duration tick;
    private final Runnable beforeEachRound;
    private final LongAdder sent = new LongAdder();
    private final AtomicLong failed = new AtomicLong();
    private ServiceLoop loop;

    /** @param beforeEachRound runs on the push thread at the start of every interval, e.g. {@link Churn#step} */
    public PushGenerator(
            Fleet fleet, KafkaClients clients, String topic, Duration pushInterval, Runnable beforeEachRound) {
        this(fleet, clients, topic, pushInterval, Duration.ZERO, beforeEachRound);
    }

    /**
     * @param tick the orders whose phases fall within one tick are sent together at its end: a small fleet then
     *             reaches the broker in a few batches per interval, as a large one does, rather than one request per
     *             order; zero sends each order at its own phase
     */
    public PushGenerator(
            Fleet fleet,
            KafkaClients clients,
            String topic,
            Duration pushInterval,
            Duration tick,
            Runnable beforeEachRound) {
        this.fleet = fleet;
        this.tick = tick;
        this.clients = clients;
        this.topic = topic;
        this.pushInterval = pushInterval;
        this.beforeEachRound = beforeEachRound;
    }

    public synchronized void start() {
        if (loop != null) {
            throw new IllegalStateException("the push generator was started already");
        }
        // A few ms of linger batch the records of one moment; send() never waits for an acknowledgement.
        // One request in flight: with more, Kafka before 4.5 can silently drop the first batch sent to a partition
        // that was just created (KAFKA-15591), which is what tests and the demo do.
        KafkaProducer<byte[], byte[]> producer = clients.producer(
                "lapse-simulator-push",
                Map.of(
                        ProducerConfig.LINGER_MS_CONFIG,
                        5,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        64 * 1024,
                        ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                        1));
        PushRounds rounds = new PushRounds(fleet, pushInterval, tick, beforeEachRound, System.nanoTime());
        loop = new ServiceLoop(
                "lapse-simulator-push",
                () -> sendDue(rounds, producer),
                () -> {},
                () -> producer.close(Duration.ofSeconds(5)));
        loop.start();
    }

    /** Pushes the broker acknowledged. */
    public long pushesSent() {
        return sent.sum();
    }

    public long pushesFailed() {
        return failed.get();
    }

    public synchronized boolean isHealthy() {
        return loop != null && loop.isHealthy();
    }

    /** Why the generator's thread is dead or stuck; empty while it lives. */
    public synchronized Optional<String> livenessProblem() {
        return ServiceLoop.livenessProblemOf(loop);
    }

    private void sendDue(PushRounds rounds, KafkaProducer<byte[], byte[]> producer) {
        for (SimulatedOrder order : rounds.due(System.nanoTime())) {
            fleet.takePush(order).ifPresent(status -> send(producer, status));
        }
        LockSupport.parkNanos(Math.min(rounds.nextDueAt() - System.nanoTime(), LONGEST_NAP_NANOS));
    }

    private void send(KafkaProducer<byte[], byte[]> producer, StatusPush status) {
        producer.send(
                new ProducerRecord<>(
                        topic, status.orderId().getBytes(StandardCharsets.UTF_8), JsonCodec.STATUS_PUSH.encode(status)),
                this::acknowledged);
    }

    private void acknowledged(RecordMetadata metadata, Exception error) {
        if (error == null) {
            sent.increment();
            return;
        }
        long failures = failed.incrementAndGet();
        // one line per thousand failures: a lost broker would otherwise flood the log
        if (failures % 1000 == 1) {
            log.warn("a push to {} failed ({} so far): {}", topic, failures, error.toString());
        }
    }

    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.close();
        }
    }
}
