package io.lapse.store.timers.internal;

import io.lapse.event.TimerExpired;
import io.lapse.store.timers.OrderView;
import java.util.OptionalLong;

/** Reads the per-order entry that the Lua scripts write: 'T', or 'phase|lastSeen|attempt|deadline|source'. */
public final class StateRecord {

    private StateRecord() {}

    /**
     * @param state the state hash's entry, or null
     * @param score the due set's score, or null
     */
    public static OrderView view(String orderId, String state, Double score, long ttlMillis) {
        OptionalLong dueAt = score == null ? OptionalLong.empty() : OptionalLong.of(score.longValue());
        if (state == null) {
            return score == null
                    ? new OrderView(orderId, OrderView.Phase.UNKNOWN, OptionalLong.empty(), 0, dueAt)
                    : new OrderView(
                            orderId, OrderView.Phase.ARMED, OptionalLong.of(score.longValue() - ttlMillis), 0, dueAt);
        }
        if (state.equals("T")) {
            return new OrderView(orderId, OrderView.Phase.ENDED, OptionalLong.empty(), 0, dueAt);
        }
        String[] parts = state.split("\\|");
        if (parts.length != 5) {
            throw new IllegalStateException("unreadable timer state for order " + orderId + ": " + state);
        }
        OrderView.Phase phase = switch (parts[0]) {
            case "W" -> OrderView.Phase.ARMED;
            case "L" -> OrderView.Phase.LEASED;
            case "A" -> OrderView.Phase.FIRED;
            case "R" -> OrderView.Phase.RECOVERED;
            case "G" -> OrderView.Phase.GIVEN_UP;
            default -> throw new IllegalStateException("unknown timer phase for order " + orderId + ": " + state);
        };
        if (score == null && phase != OrderView.Phase.GIVEN_UP) {
            dueAt = OptionalLong.of(Long.parseLong(parts[3]));
        }
        return new OrderView(
                orderId, phase, OptionalLong.of(Long.parseLong(parts[1])), Integer.parseInt(parts[2]), dueAt);
    }

    /** The source a claim's letter names: 'c' compensator, 'm' manual, anything else the firing mode's own. */
    public static TimerExpired.Source source(String letter, TimerExpired.Source own) {
        return switch (letter) {
            case "c" -> TimerExpired.Source.COMPENSATOR;
            case "m" -> TimerExpired.Source.MANUAL;
            default -> own;
        };
    }
}
