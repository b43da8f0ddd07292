package io.lapse.bench.lateness;

import org.HdrHistogram.Histogram;

/**
 * Percentiles of fire lateness in ms (deadline to Kafka's append time), to HdrHistogram's three significant digits.
 * A negative lateness (an expiry appended before its deadline) counts as 0 here; the false-expiry count reports
 * such expiries.
 */
public record Lateness(long count, long p50, long p99, long max) {

    private static final long HIGHEST_MILLIS = 3_600_000;

    public Lateness {
        if (count < 0 || p50 < 0 || p50 > p99 || p99 > max) {
            throw new IllegalArgumentException("not percentiles: " + p50 + ", " + p99 + ", " + max);
        }
    }

    public static Lateness of(long[] millis) {
        Histogram histogram = new Histogram(HIGHEST_MILLIS, 3);
        for (long ms : millis) {
            histogram.recordValue(Math.max(0, Math.min(ms, HIGHEST_MILLIS)));
        }
        if (histogram.getTotalCount() == 0) {
            return new Lateness(0, 0, 0, 0);
        }
        return new Lateness(
                histogram.getTotalCount(),
                histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99),
                histogram.getMaxValue());
    }
}
