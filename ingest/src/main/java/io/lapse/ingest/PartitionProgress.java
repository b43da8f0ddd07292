package io.lapse.ingest;

import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * How far each assigned partition has been read, as a watermark: the newest record timestamp consumed (never later
 * than when it was read), or, once the partition is fully read, the time of that poll. It only moves forward.
 */
final class PartitionProgress {

    private final Map<TopicPartition, Long> marks = new HashMap<>();

    void consumed(TopicPartition partition, long recordTimestamp, long readTime) {
        long mark = recordTimestamp < 0 ? readTime : Math.min(recordTimestamp, readTime);
        marks.merge(partition, mark, Math::max);
    }

    /**
     * @param lag      records left to read per partition, empty when the consumer does not know yet
     * @param pollTime when the poll that produced this lag returned
     * @return "topic/partition" → watermark, for every assigned partition whose progress is known
     */
    Map<String, Long> watermarks(Collection<TopicPartition> assigned, Function<TopicPartition, OptionalLong> lag,
                                 long pollTime) {
        Map<String, Long> report = new HashMap<>();
        for (TopicPartition partition : assigned) {
            OptionalLong left = lag.apply(partition);
            if (left.isPresent() && left.getAsLong() == 0) {
                marks.merge(partition, pollTime, Math::max);
            }
            Long mark = marks.get(partition);
            if (mark != null) {
                report.put(name(partition), mark);
            }
        }
        return report;
    }

    void forget(Collection<TopicPartition> revoked) {
        revoked.forEach(marks::remove);
    }

    static String name(TopicPartition partition) {
        return partition.topic() + "/" + partition.partition();
    }
}
