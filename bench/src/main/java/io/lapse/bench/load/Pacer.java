package io.lapse.bench.load;

import java.util.concurrent.locks.LockSupport;

/**
 * A schedule of numbered sends followed in real time by one thread, a tick at a time: what fell due by now, and how far
 * behind its schedule the sender ran at worst, which is how a system that holds the sender back shows in a report.
 */
public final class Pacer {

    /** When the sends are due: the load generator's pushes, the peers benchmark's re-arms. */
    public interface Schedule {

        /** How many sends (skipped ones included) are due once this much time has passed since the start. */
        long dueBy(long elapsedNanos);

        /** When send {@code index} is due, in nanoseconds after the start. */
        long dueAt(long index);
    }

    private static final long TICK_NANOS = 1_000_000;

    private final Schedule schedule;
    private final long startNanos;
    private volatile long behindMaxNanos;

    /** The schedule starts now. */
    public Pacer(Schedule schedule) {
        this.schedule = schedule;
        this.startNanos = System.nanoTime();
    }

    /** System.nanoTime() at which send 0 was due. */
    public long startNanos() {
        return startNanos;
    }

    /** @return how many sends are due by now; notes how late {@code next}, the first one not sent yet, is */
    public long dueNow(long next) {
        long elapsed = System.nanoTime() - startNanos;
        long due = schedule.dueBy(elapsed);
        if (next < due) {
            behindMaxNanos = Math.max(behindMaxNanos, elapsed - schedule.dueAt(next));
        }
        return due;
    }

    /** Waits for the next tick, having sent what was due. */
    public void awaitTick() {
        LockSupport.parkNanos(TICK_NANOS);
    }

    /** How far behind its schedule the sender has run at worst so far. */
    public long behindMaxMillis() {
        return behindMaxNanos / 1_000_000;
    }

    public double secondsSinceStart() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
