package io.lapse.operations.republish;

import io.lapse.operations.kafka.Coordinate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The originals a topic already holds copies of, read from the copies' {@link CopyMark}s. Copies are written after
 * what they copy, so reading a topic from the time of the oldest original in question finds every earlier copy.
 */
public final class CopyLedger {

    /** copy → the original it copies */
    private final Map<Coordinate, Coordinate> originals = new HashMap<>();

    private final Set<Coordinate> copied = new HashSet<>();

    /** Notes the record if it is a copy; returns whether it was one. */
    public boolean note(ConsumerRecord<byte[], byte[]> record) {
        Coordinate origin = CopyMark.of(record.headers());
        if (origin == null) {
            return false;
        }
        originals.put(Coordinate.of(record), origin);
        copied.add(origin);
        return true;
    }

    /** The original behind a record: itself, unless it is a copy. */
    public Coordinate originOf(Coordinate record) {
        return originals.getOrDefault(record, record);
    }

    public boolean holdsCopyOf(Coordinate record) {
        return copied.contains(originOf(record));
    }

    /** Remembers a copy this run published, so that the same original is not published twice in one run either. */
    public void copiedNow(Coordinate origin) {
        copied.add(origin);
    }
}
