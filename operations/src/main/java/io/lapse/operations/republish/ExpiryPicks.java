package io.lapse.operations.republish;

import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.store.timers.OrderView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What a replay of the expired topic, or a redrive of its dead letters, re-publishes: one expiry per order, its newest
 * among those offered, so that an order silent through a whole outage is pulled once rather than once per repeat; and
 * none for an order that has had a status since (the puller would skip it) or whose silence an earlier replay or
 * redrive already re-published.
 *
 * @param <T> what carries an expiry: a record of the expired topic, or a dead letter of one
 */
public final class ExpiryPicks<T> {

    /** An order's silence: the status its expiries counted from. A replay re-publishes each silence once. */
    private record Silence(String orderId, long lastSeen) {}

    /** The expiry picked for an order, with what carried it. */
    public record Pick<T>(T carrier, TimerExpired expiry) {}

    /**
     * What was picked, and how many orders were left out for which reason.
     *
     * @param superseded expiries left out because a newer one of the same order was offered
     */
    public record Selection<T>(
            List<Pick<T>> picks, long orders, long statusSince, long replayedBefore, long superseded) {}

    private final Map<String, Pick<T>> newest = new LinkedHashMap<>();
    private final Set<Silence> replayed = new HashSet<>();
    private long unreadable;
    private long offered;

    /** Notes a copy found in the target topic: its order's silence was re-published before. */
    public void noteCopy(byte[] copy) {
        TimerExpired expiry = decode(copy);
        if (expiry != null) {
            replayed.add(new Silence(expiry.orderId(), expiry.lastSeen()));
        }
    }

    /** @param value the bytes of the expiry the carrier holds */
    public void offer(T carrier, byte[] value) {
        TimerExpired expiry = decode(value);
        if (expiry == null) {
            unreadable++;
            return;
        }
        offered++;
        newest.merge(expiry.orderId(), new Pick<>(carrier, expiry), (a, b) -> isNewer(b.expiry(), a.expiry()) ? b : a);
    }

    private static boolean isNewer(TimerExpired candidate, TimerExpired current) {
        return candidate.lastSeen() != current.lastSeen()
                ? candidate.lastSeen() > current.lastSeen()
                : candidate.attempt() > current.attempt();
    }

    /** Records of the range that are not TimerExpired; the puller dead-letters them, a replay leaves them out. */
    public long unreadable() {
        return unreadable;
    }

    /** @param views what the timer store knows of the given orders */
    public Selection<T> select(Function<Collection<String>, Map<String, OrderView>> views) {
        Map<String, OrderView> known = newest.isEmpty() ? Map.of() : views.apply(newest.keySet());
        List<Pick<T>> picks = new ArrayList<>();
        long statusSince = 0;
        long replayedBefore = 0;
        for (Pick<T> pick : newest.values()) {
            TimerExpired expiry = pick.expiry();
            if (known.get(expiry.orderId()).hasNewsSince(expiry.lastSeen())) {
                statusSince++;
            } else if (replayed.contains(new Silence(expiry.orderId(), expiry.lastSeen()))) {
                replayedBefore++;
            } else {
                picks.add(pick);
            }
        }
        return new Selection<>(picks, newest.size(), statusSince, replayedBefore, offered - newest.size());
    }

    private static TimerExpired decode(byte[] value) {
        try {
            return JsonCodec.TIMER_EXPIRED.decode(value);
        } catch (RuntimeException e) {
            // not a TimerExpired, whichever way its bytes are wrong (InvalidRecordException, or worse)
            return null;
        }
    }
}
