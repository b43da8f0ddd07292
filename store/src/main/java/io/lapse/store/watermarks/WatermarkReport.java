package io.lapse.store.watermarks;

import java.util.Map;

/**
 * What one ingest instance reports after a batch is applied.
 *
 * @param marks      "topic/partition" → mark, for the partitions it reads whose progress it knows
 * @param partitions topic → how many partitions the broker listed for it at {@code countedAt}; empty while unknown
 * @param countedAt  when ingest asked the broker for the partition counts (taken before asking)
 * @param madeAt     when the report was made
 */
public record WatermarkReport(Map<String, Long> marks, Map<String, Integer> partitions, long countedAt, long madeAt) {

    public WatermarkReport {
        marks = Map.copyOf(marks);
        partitions = Map.copyOf(partitions);
    }

    /** Whether it says what {@code other} said (null: nothing), but for when it was made. */
    public boolean saysWhat(WatermarkReport other) {
        return other != null
                && marks.equals(other.marks)
                && partitions.equals(other.partitions)
                && countedAt == other.countedAt;
    }

    public boolean isEmpty() {
        return marks.isEmpty() && partitions.isEmpty();
    }
}
