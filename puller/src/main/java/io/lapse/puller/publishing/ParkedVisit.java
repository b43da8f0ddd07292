package io.lapse.puller.publishing;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * How a parked expiry waits, carried in headers of its record on the parked topic beside the expiry's own bytes: the
 * how-manieth time it is parked, the requests upstream got for it so far, when it is due to be asked again (epoch ms),
 * and why it waits. A record without them is an expiry as the timer published it.
 */
public record ParkedVisit(int visit, int asked, long dueAt, String why) {

    static final String VISIT = "lapse-parked-visit";
    static final String ASKED = "lapse-parked-asked";
    static final String DUE = "lapse-parked-due";
    static final String WHY = "lapse-parked-why";
    /** Enough to say why in {@code kafka-console-consumer}; a dead letter keeps the whole reason elsewhere. */
    private static final int MOST_WHY_CHARS = 512;

    public ParkedVisit {
        if (visit < 1 || asked < 0) {
            throw new IllegalArgumentException(
                    "a parked visit counts from 1 and asks 0 or more times, got visit " + visit + ", asked " + asked);
        }
        why = why == null ? "" : why.length() > MOST_WHY_CHARS ? why.substring(0, MOST_WHY_CHARS) : why;
    }

    /**
     * What the headers say; null when they say nothing of a parked visit. A value that is no number (someone else
     * wrote the record) counts as the first visit, due at once.
     */
    public static ParkedVisit of(Headers headers) {
        Header visit = headers.lastHeader(VISIT);
        if (visit == null) {
            return null;
        }
        return new ParkedVisit(
                (int) Math.max(1, number(visit)),
                (int) Math.max(0, number(headers.lastHeader(ASKED))),
                Math.max(0, number(headers.lastHeader(DUE))),
                text(headers.lastHeader(WHY)));
    }

    void writeTo(Headers headers) {
        headers.remove(VISIT).remove(ASKED).remove(DUE).remove(WHY);
        headers.add(VISIT, bytes(Integer.toString(visit)));
        headers.add(ASKED, bytes(Integer.toString(asked)));
        headers.add(DUE, bytes(Long.toString(dueAt)));
        headers.add(WHY, bytes(why));
    }

    private static long number(Header header) {
        try {
            return header == null ? 0 : Long.parseLong(text(header));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String text(Header header) {
        return header == null || header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
