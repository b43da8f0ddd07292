package io.lapse.faults.soak.judge;

/** The times of an order's last few pushes, newest overwriting oldest: what the {@link Judge} keeps per order. */
final class RecentPushes {

    private final long[] times;
    private int next;
    private int count;

    RecentPushes(int kept) {
        if (kept < 1) {
            throw new IllegalArgumentException("kept must be at least 1, was " + kept);
        }
        this.times = new long[kept];
    }

    void add(long pushedAt) {
        times[next] = pushedAt;
        next = (next + 1) % times.length;
        count = Math.min(count + 1, times.length);
    }

    /** The newest push's time; an order is only kept once it pushed. */
    long last() {
        return times[(next - 1 + times.length) % times.length];
    }

    /** Whether one of the kept pushes is in (after, upTo]. */
    boolean anyIn(long after, long upTo) {
        for (int i = 0; i < count; i++) {
            if (times[i] > after && times[i] <= upTo) {
                return true;
            }
        }
        return false;
    }
}
