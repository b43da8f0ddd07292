package io.lapse.faults.observe;

import io.lapse.faults.waiting.Waiting;
import io.lapse.lifecycle.ServiceLoop;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one topic from its beginning on a background thread, without a consumer group, and keeps what a decoder makes
 * of each record (null, or an exception, for a record it ignores). It survives a lost broker: a failed round is
 * retried. Partitions added to the topic are read from their beginning within {@link #PARTITIONS_SEEN_WITHIN}.
 * {@link #awaitCaughtUp} proves it has read everything Kafka held at the moment of the call.
 */
public final class TopicTap<T> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicTap.class);
    private static final Duration POLL = Duration.ofMillis(100);
    /** At the start, or after the broker came back, a position needs a round trip: on a busy machine more than a poll. */
    private static final Duration POSITION_TIMEOUT = Duration.ofSeconds(2);
    /** The consumer's metadata age: a judge that missed a partition added to the topic would miss its records. */
    private static final Duration PARTITIONS_SEEN_WITHIN = Duration.ofSeconds(1);

    private final String topic;
    // read by awaitCaughtUp's caller, grown on the tap's thread
    private volatile List<TopicPartition> partitions;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Function<ConsumerRecord<byte[], byte[]>, T> decoder;
    private final Queue<T> seen = new ConcurrentLinkedQueue<>();
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final ServiceLoop loop;

    private TopicTap(
            String bootstrapServers,
            String topic,
            int partitionCount,
            Function<ConsumerRecord<byte[], byte[]>, T> decoder) {
        this.topic = topic;
        this.partitions = IntStream.range(0, partitionCount)
                .mapToObj(p -> new TopicPartition(topic, p))
                .toList();
        this.consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.METADATA_MAX_AGE_CONFIG,
                        (int) PARTITIONS_SEEN_WITHIN.toMillis(),
                        // as Lapse's readers should: a fleet event of a judge that was fenced mid-publish is aborted
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.decoder = decoder;
        this.loop = new ServiceLoop(
                "faults-tap-" + topic, this::pollOnce, consumer::wakeup, () -> consumer.close(Duration.ofSeconds(5)));
    }

    /** @param partitionCount of the topic, which must exist */
    public static <T> TopicTap<T> start(
            String bootstrapServers,
            String topic,
            int partitionCount,
            Function<ConsumerRecord<byte[], byte[]>, T> decoder) {
        TopicTap<T> tap = new TopicTap<>(bootstrapServers, topic, partitionCount, decoder);
        tap.consumer.assign(tap.partitions);
        tap.consumer.seekToBeginning(tap.partitions);
        tap.loop.start();
        return tap;
    }

    private void pollOnce() {
        readAddedPartitions();
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            T value = decodeOrNull(record);
            if (value != null) {
                seen.add(value);
            }
        }
        for (TopicPartition partition : partitions) {
            positions.put(partition, consumer.position(partition, POSITION_TIMEOUT));
        }
    }

    /** Partitions the topic gained since the last look, from their beginning; from the consumer's cached metadata. */
    private void readAddedPartitions() {
        List<TopicPartition> now = consumer.partitionsFor(topic, POSITION_TIMEOUT).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition))
                .toList();
        List<TopicPartition> added =
                now.stream().filter(p -> !partitions.contains(p)).toList();
        if (!added.isEmpty()) {
            log.info("{}: reading the added partitions {}", topic, added);
            consumer.assign(now);
            consumer.seekToBeginning(added);
            partitions = now;
        }
    }

    private T decodeOrNull(ConsumerRecord<byte[], byte[]> record) {
        try {
            return decoder.apply(record);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Everything kept so far, in the order read. */
    public List<T> seen() {
        return List.copyOf(seen);
    }

    /** @return whether the tap read up to the end offsets Kafka reported at the call, within the timeout */
    public boolean awaitCaughtUp(Admin admin, Duration timeout) {
        List<TopicPartition> partitions = this.partitions;
        Map<TopicPartition, Long> ends;
        try {
            ends = admin
                    .listOffsets(partitions.stream().collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest())))
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .entrySet()
                    .stream()
                    .collect(Collectors.toMap(
                            Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.warn("cannot ask Kafka for the end of {}: {}", topic, e.toString());
            return false;
        }
        return Waiting.until(
                () -> ends.entrySet().stream()
                        .allMatch(end -> positions.getOrDefault(end.getKey(), -1L) >= end.getValue()),
                timeout);
    }

    @Override
    public void close() {
        loop.close();
    }
}
