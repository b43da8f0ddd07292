package io.lapse.store.timers;

import java.util.Objects;

/**
 * What Redis should hold for one order, as the compensator's durable mirror of the topics knows it. A rebuild writes
 * it wherever Redis holds less (see rebuild.lua).
 *
 * @param lastSeen      event time (ms) of the newest status, from which the expiries count
 * @param fired         expiries published since that status; the next one is attempt fired + 1
 * @param firedDeadline deadline of the last expiry published, 0 when none was
 * @param at            {@link Phase#WATCHED}: when the next expiry is due; otherwise when the order ended, from which
 *                      its mark is kept for timer.tombstone-retention
 */
public record TimerImage(String orderId, Phase phase, long lastSeen, int fired, long firedDeadline, long at) {

    public enum Phase {
        /** Watched: the next expiry is attempt fired + 1, due at {@code at}. */
        WATCHED("w"),
        /** Fired timer.max-attempts times; no longer watched until a newer status. */
        GIVEN_UP("g"),
        /** A terminal status arrived; the tombstone keeps replayed statuses from reviving it. */
        ENDED("t");

        final String code;

        Phase(String code) {
            this.code = code;
        }
    }

    public TimerImage {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(phase, "phase");
        if (fired < 0) {
            throw new IllegalArgumentException("fired must not be negative: " + fired);
        }
    }

    /** The attempt number of the next expiry of a watched order. */
    public int nextAttempt() {
        return fired + 1;
    }
}
