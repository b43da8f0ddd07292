package io.lapse.ingest;

import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * What the broker said at a known time: every record appended to a partition before {@code askedAt} lies below its
 * end offset. A partition read (and applied) up to that offset is therefore caught up as of {@code askedAt}, whatever
 * happened since.
 *
 * @param askedAt    taken before the question was sent (ingest's clock)
 * @param endOffsets per partition asked about, its end offset
 * @param partitions per topic, how many partitions the broker listed
 */
record CaughtUpProof(long askedAt, Map<TopicPartition, Long> endOffsets, Map<String, Integer> partitions) {

    CaughtUpProof {
        endOffsets = Map.copyOf(endOffsets);
        partitions = Map.copyOf(partitions);
    }

    /** Whether reading up to {@code position} covers every record the partition had at {@code askedAt}. */
    boolean reached(TopicPartition partition, OptionalLong position) {
        Long end = endOffsets.get(partition);
        return end != null && position.isPresent() && position.getAsLong() >= end;
    }
}
