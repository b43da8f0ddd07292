package io.lapse.faults.chaos;

/**
 * One fault of the schedule.
 *
 * @param at       when it strikes, ms after the fault phase began
 * @param kind     what it does
 * @param target   what it acts on: an instance ({@code timer-2}) or the kind's one target ({@code redis}, …)
 * @param duration its drawn duration in ms (a freeze's, a down time, a window), 0 for none
 */
public record Strike(long at, FaultKind kind, String target, long duration) {

    /** A line of the printed schedule, e.g. {@code  +12.4 s  freeze        timer-2        6.1 s}. */
    String describe() {
        return String.format(
                "%+8.1f s  %-16s %-14s %s",
                at / 1000.0, kind.label(), target, duration == 0 ? "" : String.format("%.1f s", duration / 1000.0));
    }
}
