package io.lapse.store.timers;

import java.util.OptionalLong;

/**
 * What the timer store knows of one order, for the puller's and the compensator's decisions.
 *
 * @param lastSeen event time of the newest status the timer counts from, when known
 * @param dueAt    when the order next needs attention, when it is queued
 */
public record OrderView(String orderId, Phase phase, OptionalLong lastSeen, int attempt, OptionalLong dueAt) {

    public enum Phase {
        /** Queued, never fired since its newest status. */
        ARMED,
        /** Fired and claimed; Kafka has not acknowledged the expiry yet. */
        LEASED,
        /** Fired and acknowledged; queued for its next repeat. */
        FIRED,
        /** Re-armed by the compensator after Redis lost it. */
        RECOVERED,
        /** Fired timer.max-attempts times; no longer watched. */
        GIVEN_UP,
        /** Finished: a terminal status arrived. */
        ENDED,
        /** Redis knows nothing of the order. */
        UNKNOWN
    }

    public boolean isWatched() {
        return phase == Phase.ARMED || phase == Phase.LEASED || phase == Phase.FIRED || phase == Phase.RECOVERED;
    }

    /**
     * Whether Redis knows of a status newer than {@code lastSeen}, or of the order's end: an expiry that counted from
     * lastSeen needs no pull any more.
     */
    public boolean hasNewsSince(long lastSeen) {
        return phase == Phase.ENDED || (this.lastSeen.isPresent() && this.lastSeen.getAsLong() > lastSeen);
    }
}
