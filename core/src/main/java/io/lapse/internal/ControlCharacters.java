package io.lapse.internal;

/**
 * Shows text that came from outside (Kafka records, Redis, upstream answers) without its control characters acting:
 * a newline in an orderId must not start a forged log line, an escape sequence must not recolour or clear a terminal.
 */
public final class ControlCharacters {

    private ControlCharacters() {}

    /** Each control character (C0, DEL, C1) as {@code \}{@code uXXXX}; everything else as it is. */
    public static String escape(CharSequence text) {
        if (text == null) {
            return null;
        }
        StringBuilder shown = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                shown.append(String.format("\\u%04x", c));
            } else {
                shown.appendCodePoint(c);
            }
        });
        return shown.toString();
    }
}
