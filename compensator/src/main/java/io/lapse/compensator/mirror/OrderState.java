package io.lapse.compensator.mirror;

import io.lapse.event.OrderUpdate;
import io.lapse.store.timers.TimerImage;
import java.time.Duration;

/**
 * What the compensator remembers of one order: everything Redis should hold for it, derived from the push, pulled
 * and expired topics. The transitions are pure functions by the timer store's rules (arm.lua, ack.lua), and they
 * commute as far as those rules allow, because the three topics reach the compensator in no particular order.
 *
 * @param lastSeen      event time (ms) of the newest status known, from which the expiries count
 * @param fired         expiries published since that status
 * @param firedDeadline deadline of the last of them, 0 when none
 * @param firedAt       when the last of them fired, 0 when none
 * @param givenUp       the last of them was final: the order is no longer watched until a newer status
 * @param endedAt       {@link Phase#ENDED}: when it finished; {@link Phase#GONE}: when upstream said it does not
 *                      know the order; 0 otherwise
 */
public record OrderState(
        Phase phase, long lastSeen, int fired, long firedDeadline, long firedAt, boolean givenUp, long endedAt) {

    public enum Phase {
        /** Watched, or given up after its last attempt. */
        ACTIVE,
        /** A terminal status arrived: a tombstone, so that replayed statuses cannot revive it. */
        ENDED,
        /** Upstream answered a pull with NOT_FOUND: Redis forgot it, and any later status watches it again. */
        GONE
    }

    public static OrderState active(long lastSeen) {
        return new OrderState(Phase.ACTIVE, lastSeen, 0, 0, 0, false, 0);
    }

    /**
     * The state after a status. A terminal status ends the order for good; a newer status re-arms it and the
     * attempt count starts again, or, once it ended, keeps its tombstone for the retention from then on (as arm.lua
     * keeps Redis's mark); NOT_FOUND forgets it unless a newer status is known; anything else changes nothing.
     *
     * @param current null when the order is unknown
     * @return {@code current} itself when nothing changes; null when the order stays unknown
     */
    public static OrderState next(OrderState current, OrderUpdate update) {
        long time = update.eventTime();
        return switch (update.kind()) {
            // the tombstone's age counts from the newest terminal status, as Redis's from the latest it applied
            case TERMINAL ->
                current != null && current.phase == Phase.ENDED && current.endedAt >= time
                        ? current
                        : new OrderState(
                                Phase.ENDED,
                                current == null ? time : Math.max(current.lastSeen, time),
                                0,
                                0,
                                0,
                                false,
                                time);
            case ACTIVE -> {
                if (current == null
                        || current.phase == Phase.GONE
                        || (current.phase == Phase.ACTIVE && time > current.lastSeen)) {
                    yield active(time);
                }
                yield current.phase == Phase.ENDED && time > current.lastSeen
                        ? new OrderState(Phase.ENDED, time, 0, 0, 0, false, current.endedAt)
                        : current;
            }
            case GONE ->
                current != null && current.phase == Phase.ACTIVE && time >= current.lastSeen
                        ? new OrderState(Phase.GONE, current.lastSeen, 0, 0, 0, false, time)
                        : current;
        };
    }

    /**
     * The state after an expiry was published. An expiry counting from a newer status than known stands for that
     * status (the push may still be on its way); one counting from an older status is stale; the highest attempt
     * wins, and of two copies of one expiry the later firedAt, which is the one the timer acknowledged.
     *
     * @param current null when the order is unknown
     * @return {@code current} itself when nothing changes
     */
    static OrderState next(OrderState current, Fired expiry) {
        if (current != null
                && (current.phase == Phase.ENDED
                        || expiry.lastSeen() < current.lastSeen
                        || (current.phase == Phase.GONE && expiry.lastSeen() == current.lastSeen))) {
            return current;
        }
        if (current == null
                || current.phase == Phase.GONE
                || expiry.lastSeen() > current.lastSeen
                || expiry.attempt() > current.fired) {
            return new OrderState(
                    Phase.ACTIVE,
                    expiry.lastSeen(),
                    expiry.attempt(),
                    expiry.deadline(),
                    expiry.firedAt(),
                    expiry.last(),
                    0);
        }
        if (expiry.attempt() < current.fired
                || (expiry.firedAt() <= current.firedAt && (current.givenUp || !expiry.last()))) {
            return current;
        }
        return new OrderState(
                Phase.ACTIVE,
                current.lastSeen,
                current.fired,
                current.firedDeadline,
                Math.max(current.firedAt, expiry.firedAt()),
                current.givenUp || expiry.last(),
                0);
    }

    /**
     * Whether a silence that ended may never have fired, and from which status: the silence began at the newer of
     * {@code lastSeen} (the push before it, or {@link MirrorInput.Silence#UNKNOWN}) and the newest status the mirror
     * knows, lasted beyond the ttl until the status at {@code endedBy}, and no expiry counting from it is known. An
     * order that ended is not watched, nor one upstream did not know since that status; one the mirror knows a status
     * of at {@code endedBy} or later is left alone, since what came between is not known.
     *
     * @param current the state before the status at {@code endedBy}; null when the order is unknown
     * @return the lastSeen the silence's expiry counts from, or {@link MirrorInput.Silence#UNKNOWN} for none
     */
    public static long unfiredSilence(OrderState current, long lastSeen, long endedBy, Duration ttl) {
        long known = current == null ? MirrorInput.Silence.UNKNOWN : current.lastSeen;
        long from = Math.max(lastSeen, known);
        if (from == MirrorInput.Silence.UNKNOWN || known >= endedBy || endedBy - from <= ttl.toMillis()) {
            return MirrorInput.Silence.UNKNOWN;
        }
        if (current == null || from > known) {
            return current != null && current.phase == Phase.ENDED ? MirrorInput.Silence.UNKNOWN : from;
        }
        return current.phase == Phase.ACTIVE && current.fired == 0 ? from : MirrorInput.Silence.UNKNOWN;
    }

    /**
     * What Redis should hold for the order.
     *
     * @return null for an order Redis should not know (upstream did not)
     */
    public TimerImage image(String orderId, Duration ttl, Duration repeat) {
        return switch (phase) {
            // the mark's age counts from the newest status heard of the order, its end or a push after it
            case ENDED -> new TimerImage(orderId, TimerImage.Phase.ENDED, lastSeen, 0, 0, Math.max(endedAt, lastSeen));
            case GONE -> null;
            case ACTIVE ->
                givenUp
                        ? new TimerImage(orderId, TimerImage.Phase.GIVEN_UP, lastSeen, fired, firedDeadline, firedAt)
                        : new TimerImage(
                                orderId,
                                TimerImage.Phase.WATCHED,
                                lastSeen,
                                fired,
                                firedDeadline,
                                fired == 0 ? lastSeen + ttl.toMillis() : firedAt + repeat.toMillis());
        };
    }

    /** The last time anything happened to the order: once it is older than the retention, the order is forgotten. */
    public long lastActivity() {
        return Math.max(lastSeen, Math.max(firedAt, endedAt));
    }
}
