package io.lapse.puller.reading;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Which offsets of each partition may be committed when records finish out of order: one past the highest offset
 * below which every registered record is done. A restart then repeats at most the records that were in flight.
 * Not thread-safe: the consumer's thread owns it.
 */
final class OffsetTracker {

    private final Map<TopicPartition, Partition> partitions = new HashMap<>();
    private int inFlight;

    /** A record was polled; it holds back its partition's commits until it is done. */
    void register(TopicPartition partition, long offset, long timestamp) {
        if (partitions.computeIfAbsent(partition, p -> new Partition()).open.putIfAbsent(offset, new Open(timestamp))
                == null) {
            inFlight++;
        }
    }

    /** Its outcome was acknowledged. Offsets of partitions forgotten since are ignored. */
    void done(TopicPartition partition, long offset) {
        Partition p = partitions.get(partition);
        Open record = p == null ? null : p.open.get(offset);
        if (record == null || record.done) {
            return;
        }
        record.done = true;
        inFlight--;
        while (!p.open.isEmpty() && p.open.firstEntry().getValue().done) {
            p.committable = p.open.pollFirstEntry().getKey() + 1;
        }
    }

    int inFlight() {
        return inFlight;
    }

    /** The first offset of the partition whose record is not done: where a restart would read again. */
    OptionalLong firstUndone(TopicPartition partition) {
        Partition p = partitions.get(partition);
        if (p == null || (p.open.isEmpty() && p.committable < 0)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(p.open.isEmpty() ? p.committable : p.open.firstKey());
    }

    /** The timestamp of that record, when it was read. */
    OptionalLong oldestUndoneTimestamp(TopicPartition partition) {
        Partition p = partitions.get(partition);
        return p == null || p.open.isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(p.open.firstEntry().getValue().timestamp);
    }

    /** Offsets to commit for the partitions whose committable offset moved since the last call. */
    Map<TopicPartition, OffsetAndMetadata> advanced() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        partitions.forEach((partition, p) -> {
            if (p.committable > p.reported) {
                p.reported = p.committable;
                offsets.put(partition, new OffsetAndMetadata(p.committable));
            }
        });
        return offsets;
    }

    /** Offsets to commit for these partitions, where any record of theirs is done. */
    Map<TopicPartition, OffsetAndMetadata> committable(Collection<TopicPartition> wanted) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition partition : wanted) {
            Partition p = partitions.get(partition);
            if (p != null && p.committable >= 0) {
                offsets.put(partition, new OffsetAndMetadata(p.committable));
            }
        }
        return offsets;
    }

    /** The partitions went to another consumer: their records in flight no longer count. */
    void forget(Collection<TopicPartition> gone) {
        for (TopicPartition partition : gone) {
            Partition p = partitions.remove(partition);
            if (p != null) {
                inFlight -= (int)
                        p.open.values().stream().filter(record -> !record.done).count();
            }
        }
    }

    private static final class Open {
        final long timestamp;
        boolean done;

        Open(long timestamp) {
            this.timestamp = timestamp;
        }
    }

    private static final class Partition {
        /** offset → its record, for every record from the first one not done on */
        final NavigableMap<Long, Open> open = new TreeMap<>();

        long committable = -1;
        long reported = -1;
    }
}
