package io.lapse.operations.watermarks;

import io.lapse.operations.cli.Connections;
import io.lapse.operations.kafka.Topics;
import io.lapse.store.watermarks.Watermarks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Ingest's per-partition watermarks beside the topics' metadata: which marks belong to partitions that no longer
 * exist, and which partitions of the watched topics have no mark yet.
 */
public final class PartitionMarks {

    /** One partition's mark. */
    public record Mark(String partition, long watermark, long ageMillis, boolean exists) {}

    private final Connections connections;
    private final Map<String, OptionalInt> partitionCounts = new HashMap<>();
    private final Map<String, Long> marks;

    public PartitionMarks(Connections connections) {
        this.connections = connections;
        // a topic's partition count is reported beside its partitions' marks as 'topic/*'
        this.marks = new TreeMap<>();
        Watermarks.of(connections.redis(), connections.keys(), connections.config())
                .all()
                .join()
                .forEach((field, entry) -> {
                    if (!Watermarks.isCountField(field)) {
                        marks.put(field, entry.value());
                    }
                });
    }

    public List<Mark> marks(long now) {
        return marks.entrySet().stream()
                .map(e -> new Mark(e.getKey(), e.getValue(), now - e.getValue(), exists(e.getKey())))
                .toList();
    }

    /** The lowest mark: the watermark; empty while ingest has reported nothing. */
    public Optional<Mark> lowest(long now) {
        return marks(now).stream().min(Comparator.comparingLong(Mark::watermark));
    }

    /** Partitions of the push and pulled topics that have no mark: they hold the watermark back. */
    public List<String> unreported() {
        List<String> missing = new ArrayList<>();
        for (String topic : List.of(
                connections.config().topics().push(),
                connections.config().topics().pulled())) {
            for (int p = 0; p < count(topic).orElse(0); p++) {
                if (!marks.containsKey(topic + "/" + p)) {
                    missing.add(topic + "/" + p);
                }
            }
        }
        return missing;
    }

    boolean has(String partition) {
        return marks.containsKey(partition);
    }

    long markOf(String partition) {
        return marks.get(partition);
    }

    /** Whether "topic/partition" names a partition the broker has. */
    boolean exists(String partition) {
        int slash = partition.lastIndexOf('/');
        try {
            int number = Integer.parseInt(partition.substring(slash + 1));
            return slash > 0
                    && number >= 0
                    && number < count(partition.substring(0, slash)).orElse(0);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private OptionalInt count(String topic) {
        return partitionCounts.computeIfAbsent(topic, t -> Topics.partitionCount(connections, t));
    }
}
