package io.lapse.operations.cli;

import io.lapse.config.Durations;
import io.lapse.event.InvalidRecordException;
import io.lapse.event.StatusHeader;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** Reads the on-call commands' arguments; a bad one stops the command with a line naming it. */
public final class Arguments {

    private Arguments() {}

    public static Duration duration(String option, String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new OnCallError(option + ": " + e.getMessage());
        }
    }

    /**
     * A moment written as ISO-8601 ({@code 2026-11-23T04:00:00Z}, {@code 2026-11-23T05:00+01:00}, or without a zone
     * for UTC), relative to now ({@code -30m}), or {@code now}.
     */
    public static long time(String option, String text, long now) {
        String value = text.trim();
        if (value.equalsIgnoreCase("now")) {
            return now;
        }
        if (value.startsWith("-")) {
            try {
                return now - Durations.parse(value.substring(1)).toMillis();
            } catch (IllegalArgumentException e) {
                throw badTime(option, text);
            }
        }
        try {
            return Instant.parse(value).toEpochMilli();
        } catch (DateTimeParseException notAnInstant) {
            try {
                return OffsetDateTime.parse(value).toInstant().toEpochMilli();
            } catch (DateTimeParseException notOffset) {
                try {
                    return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC).toEpochMilli();
                } catch (DateTimeParseException notLocal) {
                    throw badTime(option, text);
                }
            }
        }
    }

    /** A moment as {@link #time} reads it, refused when it is still to come: nothing can have happened since. */
    public static long pastTime(String option, String text, long now) {
        long time = time(option, text, now);
        if (time > now) {
            throw new OnCallError(option + " " + Show.time(time) + " is in the future (now is " + Show.time(now) + ")");
        }
        return time;
    }

    private static OnCallError badTime(String option, String text) {
        return new OnCallError(option + ": cannot read '" + text + "' as a time; write ISO-8601 "
                + "(2026-11-23T04:00:00Z) or relative to now (-30m, -2h)");
    }

    /** An orderId as the contract allows it. */
    public static String orderId(String text) {
        try {
            StatusHeader.requireOrderId(text);
        } catch (InvalidRecordException e) {
            throw new OnCallError("ORDER refused: " + e.getMessage() + " (docs/contract.md)");
        }
        return text;
    }
}
