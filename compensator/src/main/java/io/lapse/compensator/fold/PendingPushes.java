package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.OrderState;
import io.lapse.event.OrderUpdate;
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
 */
final class PendingPushes {

    private static final long NONE = Long.MIN_VALUE;

    /** One order's pending updates; NONE where it has none. */
    private static final class Pending {
        long active = NONE;
        long terminal = NONE;
        long afterEnd = NONE;
        boolean touched;
    }

    private final Map<String, Pending> orders = new HashMap<>();
    private int touched;

    /**
     * @throws IllegalArgumentException for an update that no push makes (upstream's NOT_FOUND comes with a pull)
     */
    void add(OrderUpdate update) {
        Pending pending = orders.computeIfAbsent(update.orderId(), id -> new Pending());
        if (!pending.touched) {
            pending.touched = true;
            touched++;
        }
        long time = update.eventTime();
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
    }

    /** Orders with updates to hand over. */
    int size() {
        return touched;
    }

    /**
     * Hands over every order's pending updates, each order's in the order they apply, and forgets them. Orders that
     * pushed nothing since the previous drain are dropped, as are those that ended.
     */
    void drain(Consumer<OrderUpdate> updates) {
        Iterator<Map.Entry<String, Pending>> entries = orders.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<String, Pending> entry = entries.next();
            Pending pending = entry.getValue();
            if (!pending.touched) {
                entries.remove();
                continue;
            }
            String orderId = entry.getKey();
            if (pending.active != NONE) {
                updates.accept(OrderUpdate.active(orderId, pending.active));
            }
            if (pending.terminal != NONE) {
                updates.accept(OrderUpdate.terminal(orderId, pending.terminal));
                if (pending.afterEnd != NONE) {
                    updates.accept(OrderUpdate.active(orderId, pending.afterEnd));
                }
                entries.remove();
                continue;
            }
            pending.active = NONE;
            pending.touched = false;
        }
        touched = 0;
    }

    /** Forgets every pending update, e.g. when the records they came from are to be read again. */
    void clear() {
        orders.clear();
        touched = 0;
    }
}
