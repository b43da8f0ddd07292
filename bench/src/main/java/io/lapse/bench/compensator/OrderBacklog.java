package io.lapse.bench.compensator;

import io.lapse.bench.harness.RunSandbox;
import io.lapse.bench.load.OrderIds;
import io.lapse.bench.load.PushJson;
import io.lapse.bench.load.UpstreamProducerSettings;
import io.lapse.bench.report.Rate;
import io.lapse.kafka.KeyPartitions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The pushes the compensator benchmarks fold, written to the run's push topic before anything reads it: round after
 * round over the orders, each push 15 s after the order's one before (so each re-arms the order's mirror), the first
 * round ten minutes ago. Every 50th order's last push is a terminal status, so that tombstones are mirrored too;
 * every other order was last seen {@code rounds} pushes after the first.
 */
public final class OrderBacklog {

    /** How the producer of the pushes partitions them by their key, the orderId. */
    public enum Partitioner {
        /** The Java client's default, murmur2: each push lies in its order's partition of the mirror. */
        JAVA("keyed by orderId, the Java client's partitioner"),
        /** librdkafka's default, CRC-32: most pushes lie in another partition than their order's in the mirror. */
        LIBRDKAFKA("keyed by orderId, librdkafka's partitioner");

        final String description;

        Partitioner(String description) {
            this.description = description;
        }

        /** @return the partition to write to, null for the producer's own choice */
        Integer partition(byte[] key, int partitions) {
            return this == JAVA ? null : KeyPartitions.librdkafka(key, partitions);
        }
    }

    static final int FINISHED_EVERY = 50;
    private static final Map<String, Object> FILL =
            UpstreamProducerSettings.with(Map.of(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024));
    private static final Duration FIRST_PUSH_AGO = Duration.ofMinutes(10);
    private static final Duration CADENCE = Duration.ofSeconds(15);

    private OrderBacklog() {}

    /** @return how fast the producer wrote the orders × rounds pushes, acknowledged */
    static Rate write(RunSandbox sandbox, int orders, int rounds, Partitioner partitioner) {
        long first = System.currentTimeMillis() - FIRST_PUSH_AGO.toMillis();
        AtomicLong failed = new AtomicLong();
        long started = System.nanoTime();
        Rate rate;
        try (KafkaProducer<byte[], byte[]> producer = sandbox.clients.producer("bench-compensator-fill", FILL)) {
            for (int round = 0; round < rounds; round++) {
                long seen = first + round * CADENCE.toMillis();
                boolean last = round == rounds - 1;
                for (int i = 0; i < orders; i++) {
                    String orderId = OrderIds.of(i);
                    byte[] value = last && i % FINISHED_EVERY == 0
                            ? ("{\"orderId\":\"" + orderId + "\",\"status\":\"FINISHED\",\"ts\":" + seen + "}")
                                    .getBytes(StandardCharsets.UTF_8)
                            : PushJson.charging(orderId, i, round, seen);
                    byte[] key = orderId.getBytes(StandardCharsets.UTF_8);
                    producer.send(
                            new ProducerRecord<>(
                                    sandbox.config.topics().push(),
                                    partitioner.partition(key, sandbox.partitions()),
                                    key,
                                    value),
                            (meta, error) -> {
                                if (error != null) {
                                    failed.incrementAndGet();
                                }
                            });
                }
            }
            producer.flush();
            rate = Rate.since(started, (long) orders * rounds, true);
        }
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " of " + rate.records() + " pushes were not written");
        }
        return rate;
    }
}
