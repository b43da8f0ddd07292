package io.lapse.operations;

import io.lapse.event.JsonCodec;
import io.lapse.event.TimerExpired;
import io.lapse.store.OrderView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a replay of the expired topic re-publishes: one expiry per order, its newest in the range, so that an order
 * silent through a whole outage is pulled once rather than once per repeat; and none for an order that has had a
 * status since (the puller would skip it) or whose silence an earlier replay already re-published.
 */
final class ExpiryPicks {

    /** An order's silence: the status its expiries counted from. A replay re-publishes each silence once. */
    private record Silence(String orderId, long lastSeen) {}

    /** The expiry picked for an order, with the record that carried it. */
    record Pick(ConsumerRecord<byte[], byte[]> record, TimerExpired expiry) {}

    /** What was picked, and how many orders were left out for which reason. */
    record Selection(List<Pick> picks, long orders, long statusSince, long replayedBefore) {}

    private final Map<String, Pick> newest = new LinkedHashMap<>();
    private final Set<Silence> replayed = new HashSet<>();
    private long unreadable;

    /** Notes a copy found in the target topic: its order's silence was re-published before. */
    void noteCopy(ConsumerRecord<byte[], byte[]> copy) {
        TimerExpired expiry = decode(copy);
        if (expiry != null) {
            replayed.add(new Silence(expiry.orderId(), expiry.lastSeen()));
        }
    }

    void offer(ConsumerRecord<byte[], byte[]> record) {
        TimerExpired expiry = decode(record);
        if (expiry == null) {
            unreadable++;
            return;
        }
        newest.merge(expiry.orderId(), new Pick(record, expiry), (a, b) -> isNewer(b.expiry(), a.expiry()) ? b : a);
    }

    private static boolean isNewer(TimerExpired candidate, TimerExpired current) {
        return candidate.lastSeen() != current.lastSeen()
                ? candidate.lastSeen() > current.lastSeen()
                : candidate.attempt() > current.attempt();
    }

    /** Records of the range that are not TimerExpired; the puller dead-letters them, a replay leaves them out. */
    long unreadable() {
        return unreadable;
    }

    /** @param views what the timer store knows of the given orders */
    Selection select(Function<Collection<String>, Map<String, OrderView>> views) {
        Map<String, OrderView> known = views.apply(newest.keySet());
        List<Pick> picks = new ArrayList<>();
        long statusSince = 0;
        long replayedBefore = 0;
        for (Pick pick : newest.values()) {
            TimerExpired expiry = pick.expiry();
            if (known.get(expiry.orderId()).hasNewsSince(expiry.lastSeen())) {
                statusSince++;
            } else if (replayed.contains(new Silence(expiry.orderId(), expiry.lastSeen()))) {
                replayedBefore++;
            } else {
                picks.add(pick);
            }
        }
        return new Selection(picks, newest.size(), statusSince, replayedBefore);
    }

    private static TimerExpired decode(ConsumerRecord<byte[], byte[]> record) {
        try {
            return JsonCodec.TIMER_EXPIRED.decode(record.value());
        } catch (RuntimeException e) {
            // not a TimerExpired, whichever way its bytes are wrong (InvalidRecordException, or worse)
            return null;
        }
    }
}
