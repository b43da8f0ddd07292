package io.lapse.operations.cli;

import io.lapse.internal.ControlCharacters;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the on-call commands write numbers, moments, ages and text from Kafka or Redis for people. */
public final class Show {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Show() {}

    /**
     * Prints one line with its control characters escaped: a line that quotes keys, statuses, reasons or errors read
     * from Kafka or Redis must stay one line, and an escape sequence in them must not drive the terminal.
     */
    public static void line(PrintWriter out, String text) {
        out.println(ControlCharacters.escape(text));
    }

    public static String count(long n) {
        return String.format("%,d", n);
    }

    /** "1 record", "3 records": a count with its noun, plural formed with an s. */
    public static String count(long n, String noun) {
        return count(n, noun, noun + "s");
    }

    public static String count(long n, String singular, String plural) {
        return count(n) + " " + (n == 1 ? singular : plural);
    }

    /** ", 3 replayed before" for a count above zero, nothing for zero: a clause of a summary line. */
    public static String clause(long n, String singular, String plural) {
        return n > 0 ? ", " + count(n, singular, plural) : "";
    }

    /** ISO-8601 in UTC, always to the millisecond, so that times line up in a column. */
    public static String time(long epochMillis) {
        return TIME.format(Instant.ofEpochMilli(epochMillis));
    }

    /** A duration as people say it: 850 ms, 12.3 s, 4 min, 3 h, 2 d. */
    public static String duration(long millis) {
        long ms = Math.abs(millis);
        String text;
        if (ms < 1_000) {
            text = ms + " ms";
        } else if (ms < 60_000) {
            text = String.format("%.1f s", ms / 1000.0);
        } else if (ms < 3_600_000) {
            text = ms / 60_000 + " min";
        } else if (ms < 86_400_000) {
            text = ms / 3_600_000 + " h";
        } else {
            text = ms / 86_400_000 + " d";
        }
        return millis < 0 ? "-" + text : text;
    }

    /** "12.3 s ago", or "in 4 min" for a moment still ahead. */
    public static String ago(long epochMillis, long now) {
        return epochMillis <= now ? duration(now - epochMillis) + " ago" : "in " + duration(epochMillis - now);
    }
}
