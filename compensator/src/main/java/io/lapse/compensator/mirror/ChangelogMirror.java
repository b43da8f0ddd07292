package io.lapse.compensator.mirror;

import io.lapse.kafka.KafkaClients;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The mirror as its changelog topic in Kafka holds it: every order the compensator knows, whichever instance owns it
 * and whether or not a compensator runs. Read committed, so that it is the state that goes with the committed input
 * offsets; one partition at a time, keeping only that partition's orders in memory.
 */
public final class ChangelogMirror implements MirrorSource {

    private static final int BATCH = 20_000;
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration STALL = Duration.ofSeconds(30);

    private final Consumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final Map<TopicPartition, Long> beginnings;
    private final Map<TopicPartition, Long> ends;
    private final Deserializer<String> keys = new StringDeserializer();
    private final Deserializer<OrderState> values = OrderStateSerde.serde().deserializer();

    /**
     * A consumer for changelog mirrors: read committed, no group, and never creating the topic, which Kafka Streams
     * creates with the partitions its tasks need.
     */
    public static Consumer<byte[], byte[]> consumer(KafkaClients clients, String clientId) {
        return clients.consumer(
                null,
                clientId,
                Map.of(
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        10_000,
                        ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG,
                        false));
    }

    /**
     * @param consumer one of {@link #consumer}, used by this mirror alone
     * @throws IllegalStateException when the topic does not exist
     */
    public ChangelogMirror(Consumer<byte[], byte[]> consumer, String topic) {
        this(consumer, topic, partition -> true);
    }

    /**
     * @param consumer one of {@link #consumer}, used by this mirror alone
     * @param reads    which of the topic's partitions this mirror reads
     * @throws IllegalStateException when the topic does not exist
     */
    public ChangelogMirror(Consumer<byte[], byte[]> consumer, String topic, IntPredicate reads) {
        this.consumer = consumer;
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Blocking.TIMEOUT);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist");
        }
        this.partitions = infos.stream()
                .filter(info -> reads.test(info.partition()))
                .map(info -> new TopicPartition(topic, info.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition))
                .toList();
        // assigned before asking for end offsets: read committed, the consumer keeps them as the partitions' state
        consumer.assign(partitions);
        consumer.pause(partitions);
        this.beginnings = consumer.beginningOffsets(partitions, Blocking.TIMEOUT);
        this.ends = consumer.endOffsets(partitions, Blocking.TIMEOUT);
    }

    /** Records to read: the offsets between each partition's beginning and its end when this mirror was opened. */
    @Override
    public long size() {
        return partitions.stream()
                .mapToLong(p -> ends.get(p) - beginnings.get(p))
                .sum();
    }

    @Override
    public void read(java.util.function.Consumer<Map<String, OrderState>> batch, Progress progress) {
        long done = 0;
        for (TopicPartition partition : partitions) {
            Map<String, OrderState> orders = partition(partition, done, progress);
            done += ends.get(partition) - beginnings.get(partition);
            Map<String, OrderState> chunk = new HashMap<>();
            for (Map.Entry<String, OrderState> order : orders.entrySet()) {
                chunk.put(order.getKey(), order.getValue());
                if (chunk.size() == BATCH) {
                    batch.accept(chunk);
                    chunk = new HashMap<>();
                }
            }
            if (!chunk.isEmpty()) {
                batch.accept(chunk);
            }
            progress.advanced(done);
        }
    }

    /** The newest state of each order of one partition, read up to the end it had when this mirror was opened. */
    private Map<String, OrderState> partition(TopicPartition partition, long doneBefore, Progress progress) {
        long end = ends.get(partition);
        Map<String, OrderState> orders = new LinkedHashMap<>();
        consumer.pause(partitions);
        consumer.resume(List.of(partition));
        consumer.seek(partition, beginnings.get(partition));
        long lastMove = System.nanoTime();
        long position = consumer.position(partition, Blocking.TIMEOUT);
        while (position < end) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (record.offset() >= end) {
                    break;
                }
                String orderId = keys.deserialize(record.topic(), record.key());
                OrderState state = values.deserialize(record.topic(), record.value());
                if (state == null) {
                    orders.remove(orderId);
                } else {
                    orders.put(orderId, state);
                }
            }
            long moved = consumer.position(partition, Blocking.TIMEOUT);
            if (moved > position) {
                lastMove = System.nanoTime();
                progress.advanced(doneBefore + Math.min(moved, end) - beginnings.get(partition));
            } else if (System.nanoTime() - lastMove > STALL.toNanos()) {
                throw new IllegalStateException("reading " + partition + " stalled at offset " + moved + " of " + end);
            }
            position = moved;
        }
        return orders;
    }
}
