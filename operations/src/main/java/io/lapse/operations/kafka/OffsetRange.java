package io.lapse.operations.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/** The offsets of one partition whose records fall in a time range: from {@code start} up to, not including, {@code end}. */
public record OffsetRange(TopicPartition partition, long start, long end) {

    /** The records nobody may write any more before this moment ends the range: "until now". */
    public static final long OPEN_END = Long.MAX_VALUE;

    long size() {
        return Math.max(0, end - start);
    }

    /**
     * Each partition's records with a timestamp from {@code from} until {@code to} ({@link #OPEN_END} for all written
     * so far), found by the broker's time index (offsetsForTimes).
     */
    public static List<OffsetRange> of(Consumer<?, ?> consumer, String topic, int partitions, long from, long to) {
        List<Integer> all = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            all.add(p);
        }
        return of(consumer, topic, all, from, to);
    }

    /** The same, for some of the topic's partitions only. */
    public static List<OffsetRange> of(
            Consumer<?, ?> consumer, String topic, Collection<Integer> partitions, long from, long to) {
        List<TopicPartition> all =
                partitions.stream().map(p -> new TopicPartition(topic, p)).toList();
        Map<TopicPartition, Long> ends = consumer.endOffsets(all);
        Map<TopicPartition, Long> starts = offsetsAt(consumer, all, from, ends);
        Map<TopicPartition, Long> stops = to == OPEN_END ? ends : offsetsAt(consumer, all, to, ends);
        return all.stream()
                .map(tp -> new OffsetRange(tp, starts.get(tp), stops.get(tp)))
                .toList();
    }

    /** The first offset at or after the moment, or the end when no record is that recent. */
    private static Map<TopicPartition, Long> offsetsAt(
            Consumer<?, ?> consumer, List<TopicPartition> partitions, long moment, Map<TopicPartition, Long> ends) {
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(
                partitions.stream().collect(Collectors.toMap(Function.identity(), tp -> Math.max(0, moment))));
        return partitions.stream()
                .collect(Collectors.toMap(
                        Function.identity(),
                        tp -> found.get(tp) == null
                                ? ends.get(tp)
                                : found.get(tp).offset()));
    }
}
