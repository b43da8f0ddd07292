package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Fired;
import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.compensator.mirror.OrderState;
import io.lapse.config.TimerSettings;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The silences of a task's orders that ended, by a push, before any expiry of them reached the mirror: Redis lost
 * their deadline, or the watermark held it back, until the push re-armed the order, so the timer may never fire them.
 * Each waits {@link #GRACE} for its expiry (which comes on another topic, in no particular order with the pushes) and
 * is then published by the compensator, as the timer would have published it. Kept in a store of the streams, so that
 * a restart neither loses nor repeats one: orderId → pairs of (lastSeen, noted at), usually none.
 */
final class UnfiredSilences {

    /** How long a silence waits for the timer's expiry of it after the mirror noticed that it ended. */
    static final Duration GRACE = Duration.ofSeconds(5);

    private final KeyValueStore<String, long[]> store;
    private final Duration ttl;
    private final int maxAttempts;

    UnfiredSilences(KeyValueStore<String, long[]> store, TimerSettings timer) {
        this.store = store;
        this.ttl = timer.ttl();
        this.maxAttempts = timer.maxAttempts();
    }

    static Serde<long[]> serde() {
        return Serdes.serdeFrom(
                (topic, pairs) -> {
                    if (pairs == null) {
                        return null;
                    }
                    ByteBuffer buffer = ByteBuffer.allocate(pairs.length * Long.BYTES);
                    buffer.asLongBuffer().put(pairs);
                    return buffer.array();
                },
                (topic, bytes) -> {
                    if (bytes == null) {
                        return null;
                    }
                    long[] pairs = new long[bytes.length / Long.BYTES];
                    ByteBuffer.wrap(bytes).asLongBuffer().get(pairs);
                    return pairs;
                });
    }

    /**
     * Notes the silence a push ended, when the order's state before that push shows it may never have fired.
     *
     * @return whether one was noted
     */
    boolean note(String orderId, OrderState current, MirrorInput.Silence silence, long now) {
        long from = OrderState.unfiredSilence(current, silence.lastSeen(), silence.endedBy(), ttl);
        if (from == MirrorInput.Silence.UNKNOWN) {
            return false;
        }
        long[] pairs = store.get(orderId);
        if (pairs == null) {
            store.put(orderId, new long[] {from, now});
            return true;
        }
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i] == from) {
                return false;
            }
        }
        long[] more = Arrays.copyOf(pairs, pairs.length + 2);
        more[pairs.length] = from;
        more[pairs.length + 1] = now;
        store.put(orderId, more);
        return true;
    }

    /**
     * Forgets the silences an input shows fired (an expiry counting from where one began) or never were (a status
     * within the ttl after where one began, which arrived late). Costs nothing while the task has none.
     */
    void clear(String orderId, MirrorInput input) {
        if (store.approximateNumEntries() == 0) {
            return;
        }
        long[] pairs = store.get(orderId);
        if (pairs == null) {
            return;
        }
        long[] kept = new long[pairs.length];
        int size = 0;
        for (int i = 0; i < pairs.length; i += 2) {
            if (!settles(input, pairs[i])) {
                kept[size++] = pairs[i];
                kept[size++] = pairs[i + 1];
            }
        }
        if (size == 0) {
            store.delete(orderId);
        } else if (size < pairs.length) {
            store.put(orderId, Arrays.copyOf(kept, size));
        }
    }

    private boolean settles(MirrorInput input, long from) {
        if (input instanceof Fired fired) {
            return fired.lastSeen() == from;
        }
        OrderUpdate update = input instanceof MirrorInput.Status status
                ? status.update()
                : input instanceof MirrorInput.Resumed resumed ? resumed.update() : null;
        if (update != null && update.kind() != OrderUpdate.Kind.GONE) {
            long time = update.eventTime();
            return time > from && time - from <= ttl.toMillis();
        }
        return false;
    }

    /** Takes the silences whose grace ended by {@code now} out of the store, as the expiries to publish for them. */
    List<TimerExpired> takeDue(long now) {
        List<TimerExpired> due = new ArrayList<>();
        List<KeyValue<String, long[]>> changed = new ArrayList<>();
        try (KeyValueIterator<String, long[]> entries = store.all()) {
            while (entries.hasNext()) {
                KeyValue<String, long[]> entry = entries.next();
                long[] pairs = entry.value;
                long[] kept = new long[pairs.length];
                int size = 0;
                for (int i = 0; i < pairs.length; i += 2) {
                    if (pairs[i + 1] + GRACE.toMillis() <= now) {
                        due.add(expiry(entry.key, pairs[i], now));
                    } else {
                        kept[size++] = pairs[i];
                        kept[size++] = pairs[i + 1];
                    }
                }
                if (size < pairs.length) {
                    changed.add(KeyValue.pair(entry.key, size == 0 ? null : Arrays.copyOf(kept, size)));
                }
            }
        }
        // after the iterator closed: no store must change under one
        changed.forEach(entry -> {
            if (entry.value == null) {
                store.delete(entry.key);
            } else {
                store.put(entry.key, entry.value);
            }
        });
        return due;
    }

    boolean isEmpty() {
        return store.approximateNumEntries() == 0;
    }

    /** The silence's first attempt, as the timer would have fired it: deadline lastSeen + ttl. */
    private TimerExpired expiry(String orderId, long lastSeen, long now) {
        return new TimerExpired(
                orderId,
                lastSeen + ttl.toMillis(),
                lastSeen,
                1,
                now,
                TimerExpired.Source.COMPENSATOR,
                maxAttempts == 1);
    }
}
