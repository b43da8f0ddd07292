package io.lapse.bench.load;

import io.lapse.kafka.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * Sends the pushes of a {@link PushSchedule} from one thread through one producer, never waiting for a send: a
 * generator that blocked per record could not reach 66,700 pushes/s on two shared cores. Each push carries its send
 * time as ts, which is remembered per order, so that a silent order's true deadline is known.
 */
public final class LoadGenerator implements AutoCloseable {

    private static final Map<String, Object> PRODUCER_SETTINGS = UpstreamProducerSettings.with(Map.of(
            ProducerConfig.BATCH_SIZE_CONFIG,
            64 * 1024,
            ProducerConfig.BUFFER_MEMORY_CONFIG,
            64L * 1024 * 1024,
            ProducerConfig.MAX_BLOCK_MS_CONFIG,
            10_000));

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    /** What the generator achieved; {@code behindMaxMillis} is how late its sends ran against the schedule at worst. */
    public record Stats(long acknowledged, long failed, double pushesPerSecond, long behindMaxMillis) {}

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final PushSchedule schedule;
    private final AtomicLongArray lastSent;
    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final Thread thread;
    private final Pacer pacer;
    private volatile boolean running = true;
    private Stats stats;

    private LoadGenerator(KafkaClients clients, String topic, PushSchedule schedule) {
        this.producer = clients.producer("bench-load", PRODUCER_SETTINGS);
        this.topic = topic;
        this.schedule = schedule;
        this.lastSent = new AtomicLongArray(schedule.orders());
        this.thread = new Thread(this::run, "bench-load");
        this.pacer = new Pacer(schedule);
    }

    public static LoadGenerator start(KafkaClients clients, String topic, PushSchedule schedule) {
        LoadGenerator generator = new LoadGenerator(clients, topic, schedule);
        generator.thread.start();
        return generator;
    }

    /** System.nanoTime() at which push 0 was due. */
    public long startNanos() {
        return pacer.startNanos();
    }

    /** ts of the order's newest push, 0 before its first. */
    public long lastSent(int order) {
        return lastSent.get(order);
    }

    private void run() {
        long next = 0;
        while (running) {
            long due = pacer.dueNow(next);
            for (; next < due && running; next++) {
                if (!schedule.skips(next)) {
                    send(next);
                }
            }
            pacer.awaitTick();
        }
    }

    private void send(long index) {
        int order = schedule.orderOf(index);
        String orderId = OrderIds.of(order);
        long ts = System.currentTimeMillis();
        lastSent.set(order, ts);
        try {
            producer.send(
                    new ProducerRecord<>(
                            topic,
                            orderId.getBytes(StandardCharsets.UTF_8),
                            PushJson.charging(orderId, order, schedule.roundOf(index), ts)),
                    (meta, error) -> {
                        (error == null ? acknowledged : failed).increment();
                    });
        } catch (KafkaException e) {
            failed.increment();
        }
    }

    /** Stops sending, waits for what is in flight, and reports; later calls report the same. */
    public synchronized Stats stop() {
        if (stats != null) {
            return stats;
        }
        running = false;
        try {
            thread.join(STOP_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        double seconds = pacer.secondsSinceStart();
        producer.close(STOP_TIMEOUT);
        stats = new Stats(acknowledged.sum(), failed.sum(), acknowledged.sum() / seconds, pacer.behindMaxMillis());
        return stats;
    }

    @Override
    public void close() {
        stop();
    }
}
