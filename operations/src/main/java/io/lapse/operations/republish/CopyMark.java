package io.lapse.operations.republish;

import io.lapse.kafka.CopyHeader;
import io.lapse.operations.kafka.Coordinate;
import org.apache.kafka.common.header.Headers;

/**
 * The {@link CopyHeader} as the on-call commands use it: a second run knows from it what the first one published, and
 * anyone reading a topic tells a copy from an original.
 */
public final class CopyMark {

    private CopyMark() {}

    /** The record this one copies, or null for an original. */
    public static Coordinate of(Headers headers) {
        String origin = CopyHeader.origin(headers);
        return origin == null ? null : Coordinate.parse(origin);
    }

    static void put(Headers headers, Coordinate origin) {
        CopyHeader.put(headers, origin.toString());
    }
}
