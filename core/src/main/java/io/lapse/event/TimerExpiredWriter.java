package io.lapse.event;

import java.util.Arrays;

/**
 * Writes a TimerExpired as the same JSON as data binding does, field by field: in an expiry storm, Jackson's encoding
 * of every expiry was a tenth of the timer's CPU. Only for an order id of printable ASCII without a quote or a
 * backslash, which needs no escaping (every order id seen so far); any other is left to data binding, so that the
 * escaping rules stay Jackson's. JsonCodecTest holds the two to the same bytes.
 */
final class TimerExpiredWriter {

    private TimerExpiredWriter() {}

    /** @return the JSON, or null to leave the value to data binding */
    static byte[] write(TimerExpired expiry) {
        String orderId = expiry.orderId();
        if (orderId == null || expiry.source() == null || !plain(orderId)) {
            return null;
        }
        Ascii json = new Ascii(200 + orderId.length());
        json.append("{\"orderId\":\"")
                .append(orderId)
                .append("\",\"deadline\":")
                .append(expiry.deadline())
                .append(",\"lastSeen\":")
                .append(expiry.lastSeen())
                .append(",\"attempt\":")
                .append(expiry.attempt())
                .append(",\"firedAt\":")
                .append(expiry.firedAt())
                .append(",\"source\":\"")
                .append(wireName(expiry.source()))
                .append("\"");
        if (expiry.finalAttempt()) {
            json.append(",\"final\":true");
        }
        return json.append("}").bytes();
    }

    /** ASCII text written straight into bytes: no StringBuilder, String and encoding in between. */
    private static final class Ascii {

        private final byte[] buffer;
        private int length;

        Ascii(int capacity) {
            buffer = new byte[capacity];
        }

        Ascii append(String ascii) {
            for (int i = 0; i < ascii.length(); i++) {
                buffer[length++] = (byte) ascii.charAt(i);
            }
            return this;
        }

        Ascii append(long value) {
            if (value < 0) {
                return append(Long.toString(value));
            }
            int digits = 1;
            for (long rest = value / 10; rest > 0; rest /= 10) {
                digits++;
            }
            for (int i = length + digits - 1; i >= length; i--) {
                buffer[i] = (byte) ('0' + value % 10);
                value /= 10;
            }
            length += digits;
            return this;
        }

        byte[] bytes() {
            return Arrays.copyOf(buffer, length);
        }
    }

    private static boolean plain(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static String wireName(TimerExpired.Source source) {
        return switch (source) {
            case TIMER -> "timer";
            case KEYSPACE -> "keyspace";
            case COMPENSATOR -> "compensator";
            case MANUAL -> "manual";
        };
    }
}
