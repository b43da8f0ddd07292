package io.lapse.bench.storm;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Expiries that should not have fired: the order pushed a status with ts in (deadline − ttl, deadline], so its
 * deadline had moved past the one the expiry names.
 */
public final class FalseExpiries {

    /** An expiry as far as this judgement goes. */
    public record Fired(String orderId, long deadline) {}

    private FalseExpiries() {}

    /** @param pushTimes orderId → the ts of its pushes, sorted ascending */
    public static long count(List<Fired> expiries, Map<String, long[]> pushTimes, long ttlMillis) {
        long wrong = 0;
        for (Fired expiry : expiries) {
            long[] times = pushTimes.get(expiry.orderId());
            if (times != null && anyIn(times, expiry.deadline() - ttlMillis, expiry.deadline())) {
                wrong++;
            }
        }
        return wrong;
    }

    /** Whether a sorted array holds a value in (after, upTo]. */
    private static boolean anyIn(long[] sorted, long after, long upTo) {
        int at = Arrays.binarySearch(sorted, after + 1);
        int first = at >= 0 ? at : -at - 1;
        // binarySearch finds any of equal values: step back to the first of them
        while (first > 0 && sorted[first - 1] > after) {
            first--;
        }
        return first < sorted.length && sorted[first] <= upTo;
    }
}
