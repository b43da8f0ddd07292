package io.lapse.bench.load;

import java.time.Duration;

/**
 * When the load generator sends which push. Push number {@code i} belongs to order {@code i mod N} and is due at
 * {@code i × cadence / N} after the start: every order pushes once per cadence, and the N pushes of a cadence are
 * spread evenly over it, as N independent chargers would be. Every stride-th order goes silent from the moment the
 * silence starts; since the orders' push times are spread, so are their silences, over exactly one cadence.
 */
public final class PushSchedule implements Pacer.Schedule {

    private final int orders;
    private final long cadenceNanos;
    private final int silentStride;
    private final long silenceStartNanos;
    private final long firstSkipped;

    /**
     * @param silentFraction share of the orders that go silent: every round(1 / fraction)-th order, none when 0
     * @param silenceStart   time after the start from which those orders stop pushing
     */
    public PushSchedule(int orders, Duration cadence, double silentFraction, Duration silenceStart) {
        this.orders = orders;
        this.cadenceNanos = cadence.toNanos();
        this.silentStride = silentFraction <= 0 ? 0 : (int) Math.max(1, Math.round(1 / silentFraction));
        this.silenceStartNanos = silenceStart.toNanos();
        this.firstSkipped = ceilDiv(Math.multiplyExact(silenceStartNanos, (long) orders), cadenceNanos);
    }

    public int orders() {
        return orders;
    }

    /** Target rate, N / cadence. */
    public double pushesPerSecond() {
        return orders * 1e9 / cadenceNanos;
    }

    @Override
    public long dueBy(long elapsedNanos) {
        return Math.multiplyExact(elapsedNanos, (long) orders) / cadenceNanos + 1;
    }

    @Override
    public long dueAt(long index) {
        return ceilDiv(Math.multiplyExact(index, cadenceNanos), orders);
    }

    private static long ceilDiv(long x, long y) {
        return Math.floorDiv(x + y - 1, y);
    }

    int orderOf(long index) {
        return (int) (index % orders);
    }

    /** How many pushes the order sent before this one. */
    long roundOf(long index) {
        return index / orders;
    }

    public boolean isSilent(int order) {
        return silentStride > 0 && order % silentStride == 0;
    }

    public int silentOrders() {
        return silentStride == 0 ? 0 : (orders + silentStride - 1) / silentStride;
    }

    /** Whether push {@code index} is one a silent order leaves out. */
    boolean skips(long index) {
        return index >= firstSkipped && isSilent(orderOf(index));
    }

    /** By then every silent order has left out at least one push; its last push is final. */
    public long silenceCompleteNanos() {
        return silenceStartNanos + cadenceNanos;
    }
}
