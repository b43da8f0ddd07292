package io.lapse.compensator.fold;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A store of the silences noted per order, each a record of {@code width} longs whose first is the lastSeen the
 * silence counts from: orderId → the records one after another, usually none. The bookkeeping {@link UnfiredSilences}
 * and {@link PulledSilences} share; what a record's other fields mean is theirs.
 */
final class SilenceRecords {

    private final KeyValueStore<String, long[]> store;
    private final int width;

    SilenceRecords(KeyValueStore<String, long[]> store, int width) {
        this.store = store;
        this.width = width;
    }

    static Serde<long[]> serde() {
        return Serdes.serdeFrom(
                (topic, longs) -> {
                    if (longs == null) {
                        return null;
                    }
                    ByteBuffer buffer = ByteBuffer.allocate(longs.length * Long.BYTES);
                    buffer.asLongBuffer().put(longs);
                    return buffer.array();
                },
                (topic, bytes) -> {
                    if (bytes == null) {
                        return null;
                    }
                    long[] longs = new long[bytes.length / Long.BYTES];
                    ByteBuffer.wrap(bytes).asLongBuffer().get(longs);
                    return longs;
                });
    }

    /** @return whether the record was added: false when the order has one counting from the same lastSeen */
    boolean add(String orderId, long[] record) {
        long[] records = store.get(orderId);
        if (records == null) {
            store.put(orderId, record.clone());
            return true;
        }
        for (int i = 0; i < records.length; i += width) {
            if (records[i] == record[0]) {
                return false;
            }
        }
        long[] more = Arrays.copyOf(records, records.length + width);
        System.arraycopy(record, 0, more, records.length, width);
        store.put(orderId, more);
        return true;
    }

    /**
     * Rewrites the order's records: {@code each} returns a record to keep (itself, or changed in place) or null to drop
     * it. Costs nothing while the store is empty.
     */
    void update(String orderId, BiFunction<String, long[], long[]> each) {
        if (isEmpty()) {
            return;
        }
        long[] records = store.get(orderId);
        if (records != null) {
            write(orderId, records, kept(orderId, records, each));
        }
    }

    /** {@link #update} of every order. */
    void updateAll(BiFunction<String, long[], long[]> each) {
        List<KeyValue<String, long[]>> changed = new ArrayList<>();
        try (KeyValueIterator<String, long[]> entries = store.all()) {
            while (entries.hasNext()) {
                KeyValue<String, long[]> entry = entries.next();
                long[] kept = kept(entry.key, entry.value, each);
                if (!Arrays.equals(kept, entry.value)) {
                    changed.add(KeyValue.pair(entry.key, kept));
                }
            }
        }
        // after the iterator closed: no store must change under one
        changed.forEach(entry -> write(entry.key, null, entry.value));
    }

    boolean isEmpty() {
        return store.approximateNumEntries() == 0;
    }

    private long[] kept(String orderId, long[] records, BiFunction<String, long[], long[]> each) {
        long[] kept = new long[records.length];
        int size = 0;
        for (int i = 0; i < records.length; i += width) {
            long[] record = each.apply(orderId, Arrays.copyOfRange(records, i, i + width));
            if (record != null) {
                System.arraycopy(record, 0, kept, size, width);
                size += width;
            }
        }
        return Arrays.copyOf(kept, size);
    }

    /** Writes {@code kept} unless it equals {@code before}; an empty array deletes the order's entry. */
    private void write(String orderId, long[] before, long[] kept) {
        if (Arrays.equals(before, kept)) {
            return;
        }
        if (kept.length == 0) {
            store.delete(orderId);
        } else {
            store.put(orderId, kept);
        }
    }
}
