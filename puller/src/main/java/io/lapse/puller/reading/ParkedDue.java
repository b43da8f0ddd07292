package io.lapse.puller.reading;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Holds back a partition of the parked topic until the record at its position is due: every parked record waits as
 * long, so the records of a partition come due in the order they were written, and the first one not due says when
 * the partition may be read again. Used on the consumer's thread only.
 */
final class ParkedDue {

    /** Per partition held back, when its next record is due (epoch ms). */
    private final Map<TopicPartition, Long> dueAt = new HashMap<>();

    /** The partition's next record is due at {@code dueAt}: it is not read until then. */
    void notBefore(TopicPartition partition, long dueAt) {
        this.dueAt.put(partition, dueAt);
    }

    /** The partitions of {@code assigned} whose next record is not due at {@code now}. */
    Set<TopicPartition> waiting(Collection<TopicPartition> assigned, long now) {
        dueAt.values().removeIf(due -> due <= now);
        Set<TopicPartition> waiting = new HashSet<>();
        for (TopicPartition partition : assigned) {
            if (dueAt.containsKey(partition)) {
                waiting.add(partition);
            }
        }
        return waiting;
    }

    /** The partitions went to another consumer. */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(dueAt::remove);
    }
}
