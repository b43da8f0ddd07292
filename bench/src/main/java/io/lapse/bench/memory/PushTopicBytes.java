package io.lapse.bench.memory;

import io.lapse.bench.load.OrderIds;
import io.lapse.bench.load.PushJson;
import io.lapse.bench.load.UpstreamProducerSettings;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.devstack.KafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka disk per status push: N orders push R rounds each onto a topic of six partitions of a fresh broker, written
 * as the benchmarks' upstream writes (lz4, linger 5 ms, {@link UpstreamProducerSettings}), then the topic's log
 * segments are measured on disk. What a push topic of 1 M orders pushing every 15 s takes a day follows from it.
 * <p>
 * {@code java -cp devtools/target/lapse-dev.jar io.lapse.bench.memory.PushTopicBytes [orders] [rounds]}
 */
public final class PushTopicBytes {

    private static final String TOPIC = "pushes";
    private static final int PARTITIONS = 6;
    private static final double PUSHES_PER_SECOND_AT_1M = 1_000_000 / 15.0;

    private PushTopicBytes() {}

    public static void main(String[] args) throws Exception {
        int orders = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        long pushes = (long) orders * rounds;
        long jsonBytes = 0;
        try (KafkaBroker broker = KafkaBroker.start()) {
            broker.createTopic(TOPIC, PARTITIONS);
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                    UpstreamProducerSettings.with(Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            broker.bootstrapServers(),
                            ProducerConfig.BATCH_SIZE_CONFIG,
                            65_536)),
                    new StringSerializer(),
                    new ByteArraySerializer())) {
                long start = System.currentTimeMillis();
                for (int round = 0; round < rounds; round++) {
                    for (int order = 0; order < orders; order++) {
                        String orderId = OrderIds.of(order);
                        byte[] json = PushJson.charging(orderId, order, round, start + round * 15_000L);
                        jsonBytes += json.length;
                        producer.send(new ProducerRecord<>(TOPIC, orderId, json));
                    }
                }
                producer.flush();
            }
            long onDisk = segmentBytes(broker.logDir());
            double perPush = (double) onDisk / pushes;
            double perDay = perPush * PUSHES_PER_SECOND_AT_1M * 86_400;
            System.out.println(new MarkdownTable(
                            "pushes",
                            "JSON bytes per push",
                            "bytes per push on disk",
                            "a day at 1 M orders every 15 s (one replica)")
                    .row(
                            String.format(Locale.ROOT, "%,d", pushes),
                            String.format(Locale.ROOT, "%.0f", (double) jsonBytes / pushes),
                            String.format(Locale.ROOT, "%.1f", perPush),
                            String.format(Locale.ROOT, "%.0f GB", perDay / 1e9)));
        }
    }

    private static long segmentBytes(Path logDir) throws IOException {
        try (Stream<Path> files = Files.walk(logDir)) {
            return files.filter(f -> f.getParent().getFileName().toString().startsWith(TOPIC + "-"))
                    .filter(f -> f.getFileName().toString().endsWith(".log"))
                    .mapToLong(PushTopicBytes::size)
                    .sum();
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
