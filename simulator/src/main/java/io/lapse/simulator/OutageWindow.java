package io.lapse.simulator;

/** The outage in force, as a window of {@link System#nanoTime} values; safe to use from any thread. */
final class OutageWindow {

    private record Window(long from, long until, Outage.Kind kind) {}

    private volatile Window window = new Window(0, 0, Outage.Kind.ERRORS);

    /** Replaces any outage with this one, counted from {@code nowNanos}. */
    void schedule(Outage outage, long nowNanos) {
        long from = nowNanos + outage.after().toNanos();
        window = new Window(from, from + outage.length().toNanos(), outage.kind());
    }

    /** The kind of the outage in force at that time, or null when there is none. */
    Outage.Kind at(long nanos) {
        Window w = window;
        return nanos - w.from >= 0 && nanos - w.until < 0 ? w.kind : null;
    }

    /** Time from {@code nanos} until the outage in force ends. */
    long remainingNanos(long nanos) {
        return Math.max(0, window.until - nanos);
    }
}
