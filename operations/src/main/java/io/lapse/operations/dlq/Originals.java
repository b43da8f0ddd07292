package io.lapse.operations.dlq;

import io.lapse.operations.kafka.Coordinate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The records dead letters name, read back from their source topics while the broker still retains them: whole, with
 * their headers and timestamp, which a dead letter does not keep (and whose value it may have cut).
 */
final class Originals {

    private static final Duration POLL = Duration.ofMillis(200);

    private Originals() {}

    /**
     * @param stall how long a read may go without a record before it gives up: the broker is gone
     * @return the retained ones among the wanted records; a record retention or compaction removed is absent
     */
    static Map<Coordinate, ConsumerRecord<byte[], byte[]>> read(
            Consumer<byte[], byte[]> consumer, Collection<Coordinate> wanted, Duration stall) {
        Map<TopicPartition, TreeSet<Long>> byPartition =
                new TreeMap<>((a, b) -> a.topic().equals(b.topic())
                        ? Integer.compare(a.partition(), b.partition())
                        : a.topic().compareTo(b.topic()));
        for (Coordinate coordinate : wanted) {
            byPartition
                    .computeIfAbsent(
                            new TopicPartition(coordinate.topic(), coordinate.partition()), tp -> new TreeSet<>())
                    .add(coordinate.offset());
        }
        Map<TopicPartition, Long> starts = consumer.beginningOffsets(byPartition.keySet());
        Map<TopicPartition, Long> ends = consumer.endOffsets(byPartition.keySet());
        Map<Coordinate, ConsumerRecord<byte[], byte[]>> found = new HashMap<>();
        for (Map.Entry<TopicPartition, TreeSet<Long>> partition : byPartition.entrySet()) {
            TopicPartition tp = partition.getKey();
            List<Long> offsets = new ArrayList<>(
                    partition.getValue().subSet(starts.getOrDefault(tp, 0L), ends.getOrDefault(tp, 0L)));
            readPartition(consumer, tp, offsets, ends.get(tp), found, stall);
        }
        consumer.unsubscribe();
        return found;
    }

    /** Seeks to the first offset still wanted, takes what one poll brings, and seeks again past it. */
    private static void readPartition(
            Consumer<byte[], byte[]> consumer,
            TopicPartition tp,
            List<Long> offsets,
            long end,
            Map<Coordinate, ConsumerRecord<byte[], byte[]>> found,
            Duration stall) {
        consumer.assign(List.of(tp));
        Set<Long> wanted = Set.copyOf(offsets);
        int next = 0;
        while (next < offsets.size()) {
            consumer.seek(tp, offsets.get(next));
            ConsumerRecords<byte[], byte[]> records = pollSome(consumer, tp, end, stall);
            if (records.isEmpty()) {
                return; // nothing but markers up to the end
            }
            long last = -1;
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (wanted.contains(record.offset())) {
                    found.put(Coordinate.of(record), record);
                }
                last = Math.max(last, record.offset());
            }
            // an offset the poll passed without a record was compacted away or was a transaction marker
            while (next < offsets.size() && offsets.get(next) <= last) {
                next++;
            }
        }
    }

    /** @return empty only when the partition's end was reached without a record */
    private static ConsumerRecords<byte[], byte[]> pollSome(
            Consumer<byte[], byte[]> consumer, TopicPartition tp, long end, Duration stall) {
        long giveUp = System.nanoTime() + stall.toNanos();
        while (true) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
            if (!records.isEmpty() || consumer.position(tp) >= end) {
                return records;
            }
            if (System.nanoTime() - giveUp > 0) {
                throw new TimeoutException("no records within " + stall);
            }
        }
    }
}
