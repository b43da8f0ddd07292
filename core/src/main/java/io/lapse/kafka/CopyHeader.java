package io.lapse.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The header every record written by {@code lapse replay} or {@code lapse dlq redrive} carries: {@code lapse-copy-of}
 * = {@code topic/partition@offset} of the record it copies. The on-call commands write and read it to publish each
 * original once; the puller reads it to answer a copy of an expiry it already answered.
 */
public final class CopyHeader {

    public static final String NAME = "lapse-copy-of";

    private CopyHeader() {}

    /** The coordinate of the record this one copies, as written, or null for an original. */
    public static String origin(Headers headers) {
        Header mark = headers.lastHeader(NAME);
        return mark == null || mark.value() == null ? null : new String(mark.value(), StandardCharsets.UTF_8);
    }

    public static void put(Headers headers, String origin) {
        headers.remove(NAME);
        headers.add(NAME, origin.getBytes(StandardCharsets.UTF_8));
    }
}
