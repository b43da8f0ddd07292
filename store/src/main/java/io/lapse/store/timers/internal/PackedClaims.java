package io.lapse.store.timers.internal;

import io.lapse.event.TimerExpired;
import io.lapse.store.timers.Claim;
import java.util.ArrayList;
import java.util.List;

/**
 * The claims between the timer and its scripts as one string of tab-separated fields: what claim.lua returns and what
 * ack.lua takes. One string rather than a Redis bulk string per field: in a storm, encoding and decoding those took
 * about a quarter of the timer's CPU samples. A tab can separate them because no orderId holds a control character.
 */
final class PackedClaims {

    private static final char SEPARATOR = '\t';

    private PackedClaims() {}

    /**
     * The claims of a claim script's reply: orderId, lastSeen, attempt, deadline and source letter per claim.
     *
     * @param firedAt     Redis's clock during the claim
     * @param ownSource   what the mode's own expiries say (see {@link StateRecord#source})
     * @param maxAttempts the attempt at and beyond which an expiry is the final one
     */
    static List<Claim> read(String packed, long firedAt, TimerExpired.Source ownSource, int maxAttempts) {
        List<Claim> claims = new ArrayList<>();
        int at = 0;
        while (at < packed.length()) {
            int idEnd = separatorAfter(packed, at);
            int seenEnd = separatorAfter(packed, idEnd + 1);
            int attemptEnd = separatorAfter(packed, seenEnd + 1);
            int deadlineEnd = separatorAfter(packed, attemptEnd + 1);
            int sourceEnd = packed.indexOf(SEPARATOR, deadlineEnd + 1);
            if (sourceEnd < 0) {
                sourceEnd = packed.length();
            }
            int attempt = Integer.parseInt(packed, seenEnd + 1, attemptEnd, 10);
            claims.add(new Claim(
                    packed.substring(at, idEnd),
                    Long.parseLong(packed, idEnd + 1, seenEnd, 10),
                    attempt,
                    Long.parseLong(packed, attemptEnd + 1, deadlineEnd, 10),
                    StateRecord.source(packed.substring(deadlineEnd + 1, sourceEnd), ownSource),
                    firedAt,
                    attempt >= maxAttempts));
            at = sourceEnd + 1;
        }
        return claims;
    }

    /** What ack.lua takes: orderId, attempt, deadline and firedAt per claim. */
    static String write(List<Claim> claims) {
        StringBuilder packed = new StringBuilder(claims.size() * 48);
        for (Claim c : claims) {
            if (!packed.isEmpty()) {
                packed.append(SEPARATOR);
            }
            packed.append(c.orderId())
                    .append(SEPARATOR)
                    .append(c.attempt())
                    .append(SEPARATOR)
                    .append(c.deadline())
                    .append(SEPARATOR)
                    .append(c.firedAt());
        }
        return packed.toString();
    }

    /** The separator that ends the field starting at {@code from}; every field of a claim but its last has one. */
    private static int separatorAfter(String packed, int from) {
        int end = packed.indexOf(SEPARATOR, from);
        if (end < 0) {
            throw new IllegalStateException("a claim reply cut short after " + from + " characters");
        }
        return end;
    }
}
