package io.lapse.store.watermarks;

import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

/**
 * The lowest mark over the partitions the topics have, by the broker's latest count: a partition without a mark
 * holds it back (nothing is known of what waits there), and so does a topic whose partitions were never counted;
 * a mark of a partition beyond the count, or of another topic, counts for nothing. The result is never later than
 * the count: a partition added since may hold records not yet read by anyone.
 */
final class WatermarkMinimum {

    private WatermarkMinimum() {}

    /** @return the minimum, or empty when some partition (or topic) has not been reported at all */
    static OptionalLong of(Map<String, WatermarkEntry> fields, Collection<String> topics) {
        return least(fields, topics, WatermarkEntry::value);
    }

    /**
     * When the oldest report among the same partitions (and counts) was made, by the reporter's clock: a reader that
     * stopped reporting, by being gone, frozen or stuck, leaves its partitions' reports behind.
     *
     * @return empty when some partition (or topic) has not been reported at all
     */
    static OptionalLong oldestReport(Map<String, WatermarkEntry> fields, Collection<String> topics) {
        return least(fields, topics, WatermarkEntry::madeAt);
    }

    /** The least of each topic's count's report time and {@code ofMark} of each of its partitions' marks. */
    private static OptionalLong least(
            Map<String, WatermarkEntry> fields, Collection<String> topics, ToLongFunction<WatermarkEntry> ofMark) {
        long low = Long.MAX_VALUE;
        for (String topic : topics) {
            WatermarkEntry count = fields.get(Watermarks.countField(topic));
            if (count == null) {
                return OptionalLong.empty();
            }
            low = Math.min(low, count.madeAt());
            for (int partition = 0; partition < count.value(); partition++) {
                WatermarkEntry mark = fields.get(Watermarks.field(topic, partition));
                if (mark == null) {
                    return OptionalLong.empty();
                }
                low = Math.min(low, ofMark.applyAsLong(mark));
            }
        }
        return topics.isEmpty() ? OptionalLong.empty() : OptionalLong.of(low);
    }
}
