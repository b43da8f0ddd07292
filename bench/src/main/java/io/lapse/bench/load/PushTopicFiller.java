package io.lapse.bench.load;

import io.lapse.bench.report.Rate;
import io.lapse.kafka.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.LongUnaryOperator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes the records of the throughput measurement before anything reads them, so that ingest and the baselines all
 * start with the whole backlog: round after round over the orders, each record a realistic charging push.
 */
public final class PushTopicFiller {

    private static final Map<String, Object> PRODUCER_SETTINGS = UpstreamProducerSettings.with(Map.of(
            ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024, ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024));
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

    private PushTopicFiller() {}

    /** @return how fast the producer wrote them, acknowledged; each record's event time and timestamp is now */
    public static Rate fill(KafkaClients clients, String topic, long records, int orders) {
        return fill(clients, topic, records, orders, i -> System.currentTimeMillis());
    }

    /** @param timeOf the event time and record timestamp of the i-th record */
    public static Rate fill(KafkaClients clients, String topic, long records, int orders, LongUnaryOperator timeOf) {
        return fill(clients, topic, records, orders, timeOf, order -> null);
    }

    /** @param operatorOf the operator the i-th order's pushes name in an operatorId field; null for none */
    public static Rate fill(
            KafkaClients clients,
            String topic,
            long records,
            int orders,
            LongUnaryOperator timeOf,
            IntFunction<String> operatorOf) {
        AtomicLong failed = new AtomicLong();
        long started = System.nanoTime();
        Rate rate;
        try (KafkaProducer<byte[], byte[]> producer = clients.producer("bench-fill", PRODUCER_SETTINGS)) {
            for (long i = 0; i < records; i++) {
                int order = (int) (i % orders);
                String orderId = OrderIds.of(order);
                long time = timeOf.applyAsLong(i);
                producer.send(
                        new ProducerRecord<>(
                                topic,
                                null,
                                time,
                                orderId.getBytes(StandardCharsets.UTF_8),
                                PushJson.charging(orderId, order, i / orders, time, operatorOf.apply(order))),
                        (meta, error) -> {
                            if (error != null) {
                                failed.incrementAndGet();
                            }
                        });
            }
            producer.flush();
            rate = Rate.since(started, records, true);
        }
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " of " + records + " records were not written to " + topic);
        }
        return rate;
    }
}
