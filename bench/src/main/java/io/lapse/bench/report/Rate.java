package io.lapse.bench.report;

/**
 * How many records one path handled in how long.
 *
 * @param complete false when the path did not get through all records before its time limit
 */
public record Rate(long records, long nanos, boolean complete) {

    public static Rate since(long startNanos, long records, boolean complete) {
        return new Rate(records, System.nanoTime() - startNanos, complete);
    }

    public double perSecond() {
        return nanos == 0 ? 0 : records * 1e9 / nanos;
    }

    public double seconds() {
        return nanos / 1e9;
    }
}
