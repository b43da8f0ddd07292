package io.lapse.operations;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The originals a topic already holds copies of, read from the copies' {@link CopyMark}s. Copies are written after
 * what they copy, so reading a topic from the time of the oldest original in question finds every earlier copy.
 */
final class CopyLedger {

    /** copy → the original it copies */
    private final Map<Coordinate, Coordinate> originals = new HashMap<>();

    private final Set<Coordinate> copied = new HashSet<>();

    /** Notes the record if it is a copy; returns whether it was one. */
    boolean note(ConsumerRecord<byte[], byte[]> record) {
        Coordinate origin = CopyMark.of(record.headers());
        if (origin == null) {
            return false;
        }
        originals.put(Coordinate.of(record), origin);
        copied.add(origin);
        return true;
    }

    /** The original behind a record: itself, unless it is a copy. */
    Coordinate originOf(Coordinate record) {
        return originals.getOrDefault(record, record);
    }

    boolean holdsCopyOf(Coordinate record) {
        return copied.contains(originOf(record));
    }

    /** Remembers a copy this run published, so that the same original is not published twice in one run either. */
    void copiedNow(Coordinate origin) {
        copied.add(origin);
    }
}
