package io.lapse.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as operators write them: {@code 90s}, {@code 1500ms}, {@code 5m}, {@code 2h}, {@code 1d} or ISO-8601. */
public final class Durations {

    private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    private Durations() {}

    /** @throws IllegalArgumentException saying which forms are accepted */
    public static Duration parse(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(value);
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        }
        if (value.startsWith("p") || value.startsWith("-p")) {
            try {
                return Duration.parse(value.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                // falls through to the common message
            }
        }
        throw new IllegalArgumentException(
                "'" + text + "' is not a duration (write e.g. 90s, 1500ms, 5m, 2h, 1d or PT90S)");
    }

    /** The shortest of the accepted forms, for logs and docs. */
    public static String format(Duration duration) {
        long ms = duration.toMillis();
        if (ms % 86_400_000 == 0 && ms != 0) {
            return ms / 86_400_000 + "d";
        }
        if (ms % 3_600_000 == 0 && ms != 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms != 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
