package io.lapse.operations;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The header on every record that lapse replay or lapse dlq redrive wrote: {@code lapse-copy-of} =
 * {@code topic/partition@offset} of the record it copies. It is how a second run knows what the first one published,
 * and how anyone reading a topic tells a copy from an original.
 */
final class CopyMark {

    static final String HEADER = "lapse-copy-of";

    private CopyMark() {}

    /** The record this one copies, or null for an original. */
    static Coordinate of(Headers headers) {
        Header mark = headers.lastHeader(HEADER);
        return mark == null ? null : Coordinate.parse(new String(mark.value(), StandardCharsets.UTF_8));
    }

    static void put(Headers headers, Coordinate origin) {
        headers.remove(HEADER);
        headers.add(HEADER, origin.toString().getBytes(StandardCharsets.UTF_8));
    }
}
