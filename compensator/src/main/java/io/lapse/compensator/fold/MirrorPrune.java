package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.OrderState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Forgets the orders of a partition that nothing happened to for the tombstone retention: Redis forgets their marks
 * after as long (prune.lua), and a watched order fires at least every timer.repeat.
 *
 * <p>A pass over the partition starts every prune interval and walks it in key order, one slice of orders per tick:
 * the stream thread that runs it must commit its transaction in time, so it never walks the whole store at once, and
 * holds no more than a slice of orders to forget.
 */
final class MirrorPrune implements Punctuator {

    /** Orders one tick reads: a few milliseconds of the stream thread's time. */
    static final int SLICE = 5_000;

    /** How often a pass under way walks its next slice, at most. */
    static final Duration TICK = Duration.ofSeconds(1);

    private final KeyValueStore<String, OrderState> orders;
    private final Duration retention;
    private final Duration interval;
    private final int slice;
    private long nextPass = Long.MIN_VALUE;
    private boolean walking;
    /** The last order the pass under way read; null before its first slice. */
    private String after;

    /** @param interval how often a pass starts; a pass longer than that is followed by the next at once */
    MirrorPrune(KeyValueStore<String, OrderState> orders, Duration retention, Duration interval, int slice) {
        this.orders = orders;
        this.retention = retention;
        this.interval = interval;
        this.slice = slice;
    }

    /**
     * How long until {@link #punctuate} is to be called next: a tick (or the interval, when shorter) while a pass is
     * under way or before the first, the interval between passes. Kafka Streams commits a task after every punctuation
     * of it, whatever the punctuator did, and with exactly-once each commit is a transaction: ticking every second
     * between passes cost the broker and the compensator a transaction a second at rest (issue 40).
     */
    Duration tick() {
        if (!walking && nextPass != Long.MIN_VALUE) {
            return interval;
        }
        return interval.compareTo(TICK) < 0 ? interval : TICK;
    }

    @Override
    public void punctuate(long now) {
        if (!walking) {
            if (now < nextPass) {
                return;
            }
            walking = true;
            after = null;
            nextPass = now + interval.toMillis();
        }
        long oldest = now - retention.toMillis();
        List<String> forgotten = new ArrayList<>();
        int read = 0;
        try (KeyValueIterator<String, OrderState> entries = after == null ? orders.all() : orders.range(after, null)) {
            while (entries.hasNext() && read < slice) {
                KeyValue<String, OrderState> entry = entries.next();
                if (entry.key.equals(after)) {
                    continue; // the range starts at the last order read, inclusive
                }
                read++;
                after = entry.key;
                if (entry.value.lastActivity() < oldest) {
                    forgotten.add(entry.key);
                }
            }
            walking = entries.hasNext();
        }
        forgotten.forEach(orders::delete); // after the iterator closed: no store must change under one
    }
}
