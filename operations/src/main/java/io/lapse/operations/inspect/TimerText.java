package io.lapse.operations.inspect;

import io.lapse.operations.cli.Show;

/** An order's timer in Redis in words, the same in lapse inspect and in lapse cohort's list of orders. */
final class TimerText {

    private TimerText() {}

    /**
     * @param phase   OrderView.Phase's name
     * @param dueAt   when Redis next looks at the order, or null
     * @param endedAt when the order finished or was given up, or null when not known
     */
    static String of(String phase, int attempt, Long dueAt, Long endedAt, long now) {
        return switch (phase) {
            case "UNKNOWN" -> "unknown to Redis: not watched";
            case "ARMED" ->
                "armed: expires " + Show.time(dueAt) + " (" + Show.ago(dueAt, now) + ") unless a status comes";
            case "LEASED" -> "being fired: attempt " + attempt + ", lease ends " + Show.time(dueAt);
            case "FIRED" ->
                "fired, attempt " + attempt + "; next expiry due " + Show.time(dueAt) + " (" + Show.ago(dueAt, now)
                        + ")";
            case "RECOVERED" ->
                "re-armed by the compensator: expires " + Show.time(dueAt) + " (" + Show.ago(dueAt, now) + ")";
            case "GIVEN_UP" ->
                "given up after attempt " + attempt + (endedAt == null ? "" : " at " + Show.time(endedAt));
            case "ENDED" -> "finished" + (endedAt == null ? "" : " at " + Show.time(endedAt));
            default -> phase;
        };
    }
}
