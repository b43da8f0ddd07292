package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.event.OrderUpdate;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The pushes read since they were last handed to the mirror, at most three updates per order whatever their number:
 * the newest active status before the order's first terminal one, the newest terminal one, and the newest active
 * status after the first terminal one. Folded in that order by {@link OrderState#next}, they leave every order as its
 * pushes one by one would: consecutive active statuses leave the newest of them, and once an order ended, active
 * statuses only move the newest status heard (from which its tombstone ages) and terminal ones its end. An
 * order pushing every 15 s costs the mirror one update a round (compensator.scan-interval) instead of one per push.
 *
 * <p>An order keeps its entry from round to round while it pushes, so that a live fleet's entries are reused rather than
 * made anew every round; an entry untouched for a whole round is dropped. Used by one thread.
 *
 * <p>The folder is the one reader that sees every push of an order, while the mirror sees one a round: so it also
 * tells the mirror of each silence the order's pushes had, a push more than the ttl after the one before it
 * ({@link MirrorInput.Silence}), whose expiry the mirror may have to publish ({@link UnfiredSilences}). It compares
 * each push with the newest before it, the only cost per push; a round hands over the newest silence of the order,
 * and, with the first status of an entry, its first push as one that may have ended a silence since the newest status
 * the mirror knows ({@link MirrorInput.Resumed}). A push arriving out of order within a silence's ttl takes the
 * silence back.
 */
final class PendingPushes {

    private static final long NONE = Long.MIN_VALUE;

    /** One order's pending updates; NONE where it has none. */
    private static final class Pending {
        long active = NONE;
        long terminal = NONE;
        long afterEnd = NONE;
        /** The newest push read while the entry lived, from round to round. */
        long newest = NONE;
        /** The newest silence of the round: where it began (or {@link MirrorInput.Silence#UNKNOWN}) and ended. */
        long silentFrom = NONE;

        long silentUntil = NONE;
        boolean touched;
    }

    private final Map<String, Pending> orders = new HashMap<>();
    private final long ttl;
    private int touched;

    PendingPushes(Duration ttl) {
        this.ttl = ttl.toMillis();
    }

    /**
     * @return whether the push ended a silence of its order (came more than the ttl after the newest push before it)
     * @throws IllegalArgumentException for an update that no push makes (upstream's NOT_FOUND comes with a pull)
     */
    boolean add(OrderUpdate update) {
        Pending pending = orders.computeIfAbsent(update.orderId(), id -> new Pending());
        if (!pending.touched) {
            pending.touched = true;
            touched++;
        }
        long time = update.eventTime();
        boolean endedSilence = false;
        if (pending.newest == NONE) {
            pending.silentFrom = MirrorInput.Silence.UNKNOWN;
            pending.silentUntil = time;
            pending.newest = time;
        } else if (time - pending.newest > ttl) {
            pending.silentFrom = pending.newest;
            pending.silentUntil = time;
            pending.newest = time;
            endedSilence = true;
        } else if (time > pending.newest) {
            pending.newest = time;
        } else if (pending.silentFrom != NONE && time > pending.silentFrom && time - pending.silentFrom <= ttl) {
            pending.silentFrom = NONE; // a push within its ttl, read late: the order was not silent
        }
        switch (update.kind()) {
            case ACTIVE -> {
                if (pending.terminal == NONE && time > pending.active) {
                    pending.active = time;
                } else if (pending.terminal != NONE && time > pending.afterEnd) {
                    pending.afterEnd = time;
                }
            }
            case TERMINAL -> {
                if (time > pending.terminal) {
                    pending.terminal = time;
                }
            }
            case GONE -> throw new IllegalArgumentException("a push cannot say upstream does not know its order");
        }
        return endedSilence;
    }

    /** Orders with updates to hand over. */
    int size() {
        return touched;
    }

    /**
     * Hands over every order's pending updates, each order's in the order they apply, after the newest silence they
     * ended, and forgets them. Orders that pushed nothing since the previous drain are dropped, as are those that
     * ended.
     */
    void drain(Consumer<MirrorInput> inputs) {
        Iterator<Map.Entry<String, Pending>> entries = orders.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<String, Pending> entry = entries.next();
            Pending pending = entry.getValue();
            if (!pending.touched) {
                entries.remove();
                continue;
            }
            String orderId = entry.getKey();
            long resumedAt = NONE;
            if (pending.silentFrom == MirrorInput.Silence.UNKNOWN) {
                resumedAt = pending.silentUntil;
            } else if (pending.silentFrom != NONE) {
                inputs.accept(new MirrorInput.Silence(orderId, pending.silentFrom, pending.silentUntil));
            }
            pending.silentFrom = NONE;
            if (pending.active != NONE) {
                inputs.accept(status(OrderUpdate.active(orderId, pending.active), resumedAt));
                resumedAt = NONE;
            }
            if (pending.terminal != NONE) {
                inputs.accept(status(OrderUpdate.terminal(orderId, pending.terminal), resumedAt));
                if (pending.afterEnd != NONE) {
                    inputs.accept(status(OrderUpdate.active(orderId, pending.afterEnd), NONE));
                }
                entries.remove();
                continue;
            }
            pending.active = NONE;
            pending.touched = false;
        }
        touched = 0;
    }

    /** @param resumedAt the first push read of an order the folder had read none of before, or NONE */
    private static MirrorInput status(OrderUpdate update, long resumedAt) {
        return resumedAt == NONE ? new MirrorInput.Status(update) : new MirrorInput.Resumed(update, resumedAt);
    }

    /** Forgets every pending update, e.g. when the records they came from are to be read again. */
    void clear() {
        orders.clear();
        touched = 0;
    }
}
