package io.lapse.event;

import java.nio.charset.StandardCharsets;

/**
 * Reads the header of a push in the plain shape producers write, straight from its bytes: ingest and the compensator
 * read every push, and Jackson costs them several times more than the scan (creating its parser alone costs more).
 * The plain shape is a strict subset of JSON: an object whose names and strings are printable ASCII without escapes,
 * nested at most 16 deep, with orderId and status strings and ts an integer or null, each at most once. Whatever else a value holds (nesting, escapes, other characters, a
 * mistake), the scan gives up and Jackson reads or rejects the whole value exactly as it always did: the rules for
 * every odd value stay in one place, Jackson's.
 */
final class StatusHeaderParser {

    /** Digits of the longest ts the scan reads itself; longer ones are Jackson's to read or refuse. */
    private static final int MAX_TS_DIGITS = 18;
    /**
     * Longest value, and longest number in it, the scan reads: far below Jackson's limits on the length of a name
     * (50,000), a string (20 M) and a number (1,000 digits), so that a value Jackson refuses for its size is never
     * read here.
     */
    private static final int MAX_VALUE_BYTES = 16 * 1024;

    private static final int MAX_NUMBER_CHARACTERS = 100;
    /** Deepest nesting the scan follows, the push's own object counting 1; far below Jackson's limit. */
    private static final int MAX_DEPTH = 16;

    private final byte[] json;
    /** The top-level field to take the text of besides the header; null for none. */
    private final FieldCapture capture;

    private int at;
    private int tokenStart;

    private StatusHeaderParser(byte[] json, FieldCapture capture) {
        this.json = json;
        this.capture = capture;
    }

    /** @return the header, or null when the value is not of the plain shape */
    static StatusHeader read(byte[] json) {
        return read(json, null);
    }

    /**
     * @param capture takes the text of its top-level field, if the push has it as a string or a number; it may hold
     *     anything when the value is not of the plain shape
     * @return the header, or null when the value is not of the plain shape
     */
    static StatusHeader read(byte[] json, FieldCapture capture) {
        if (capture != null) {
            capture.clear();
        }
        return json.length > MAX_VALUE_BYTES ? null : new StatusHeaderParser(json, capture).header();
    }

    private StatusHeader header() {
        String orderId = null;
        String status = null;
        Long ts = null;
        boolean seenTs = false;
        if (!skipSpaceTo('{')) {
            return null;
        }
        at++;
        if (skipSpaceTo('}')) {
            at++;
        } else {
            while (true) {
                if (!skipSpaceTo('"') || !string()) {
                    return null;
                }
                Field field = Field.of(json, tokenStart, at - 1);
                boolean captured = field == Field.OTHER && capture != null && capture.names(json, tokenStart, at - 1);
                if (!skipSpaceTo(':')) {
                    return null;
                }
                at++;
                skipSpace();
                switch (field) {
                    case ORDER_ID -> {
                        if (orderId != null || !string()) {
                            return null;
                        }
                        orderId = ascii();
                    }
                    case STATUS -> {
                        if (status != null || !string()) {
                            return null;
                        }
                        status = ascii();
                    }
                    case TS -> {
                        if (seenTs) {
                            return null;
                        }
                        seenTs = true;
                        if (literal("null")) {
                            ts = null;
                        } else {
                            ts = integer();
                            if (ts == null) {
                                return null;
                            }
                        }
                    }
                    case OTHER -> {
                        int valueStart = at;
                        if (!value(1)) {
                            return null;
                        }
                        if (captured) {
                            capture(valueStart);
                        }
                    }
                }
                skipSpace();
                if (at < json.length && json[at] == ',') {
                    at++;
                } else if (at < json.length && json[at] == '}') {
                    at++;
                    break;
                } else {
                    return null;
                }
            }
        }
        skipSpace();
        return at == json.length ? new StatusHeader(orderId, status, ts) : null;
    }

    /**
     * Takes the field's text from the value just read: a string's characters, or an integer's digits (an operator
     * numbered 17 is cohort 17); nothing for a fraction, a negative number or any other value.
     */
    private void capture(int valueStart) {
        if (json[valueStart] == '"') {
            capture.found(json, valueStart + 1, at - 1);
            return;
        }
        for (int i = valueStart; i < at; i++) {
            if (json[i] < '0' || json[i] > '9') {
                capture.clear();
                return;
            }
        }
        capture.found(json, valueStart, at);
    }

    private enum Field {
        ORDER_ID,
        STATUS,
        TS,
        OTHER;

        static Field of(byte[] json, int from, int to) {
            int length = to - from;
            if (length == 7 && equal(json, from, "orderId")) {
                return ORDER_ID;
            }
            if (length == 6 && equal(json, from, "status")) {
                return STATUS;
            }
            if (length == 2 && json[from] == 't' && json[from + 1] == 's') {
                return TS;
            }
            return OTHER;
        }

        private static boolean equal(byte[] json, int from, String name) {
            for (int i = 0; i < name.length(); i++) {
                if (json[from + i] != name.charAt(i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** JSON's whitespace: space, tab, line feed, carriage return. */
    private void skipSpace() {
        while (at < json.length) {
            byte b = json[at];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return;
            }
            at++;
        }
    }

    private boolean skipSpaceTo(char expected) {
        skipSpace();
        return at < json.length && json[at] == expected;
    }

    /** A string without escapes of printable ASCII, its text from tokenStart to before at - 1. */
    private boolean string() {
        if (at >= json.length || json[at] != '"') {
            return false;
        }
        tokenStart = ++at;
        while (at < json.length) {
            byte b = json[at++];
            if (b == '"') {
                return true;
            }
            // escapes, control characters and all of UTF-8 beyond ASCII are Jackson's to read
            if (b == '\\' || b < 0x20 || b > 0x7e) {
                return false;
            }
        }
        return false;
    }

    private String ascii() {
        return new String(json, tokenStart, at - 1 - tokenStart, StandardCharsets.ISO_8859_1);
    }

    /** A payload value: a plain string, a number, true, false, null, or an object or array of them. */
    private boolean value(int depth) {
        if (at >= json.length) {
            return false;
        }
        byte b = json[at];
        if (b == '"') {
            return string();
        }
        if (b == '{' || b == '[') {
            return depth < MAX_DEPTH && nested(depth + 1);
        }
        if (b == '-' || (b >= '0' && b <= '9')) {
            return number();
        }
        return literal("true") || literal("false") || literal("null");
    }

    /** An object or array in the payload, skipped to its end. */
    private boolean nested(int depth) {
        boolean object = json[at] == '{';
        byte close = (byte) (object ? '}' : ']');
        at++;
        skipSpace();
        if (at < json.length && json[at] == close) {
            at++;
            return true;
        }
        while (true) {
            if (object) {
                if (!skipSpaceTo('"') || !string() || !skipSpaceTo(':')) {
                    return false;
                }
                at++;
                skipSpace();
            }
            if (!value(depth)) {
                return false;
            }
            skipSpace();
            if (at >= json.length) {
                return false;
            }
            byte b = json[at++];
            if (b == close) {
                return true;
            }
            if (b != ',') {
                return false;
            }
            skipSpace();
        }
    }

    private boolean literal(String word) {
        int end = at + word.length();
        if (end > json.length) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (json[at + i] != word.charAt(i)) {
                return false;
            }
        }
        if (end < json.length && isWordCharacter(json[end])) {
            return false;
        }
        at = end;
        return true;
    }

    /** A number by JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
    private boolean number() {
        int from = at;
        if (json[at] == '-') {
            at++;
        }
        if (!digits(true)) {
            return false;
        }
        if (at < json.length && json[at] == '.') {
            at++;
            if (!digits(false)) {
                return false;
            }
        }
        if (at < json.length && (json[at] == 'e' || json[at] == 'E')) {
            at++;
            if (at < json.length && (json[at] == '+' || json[at] == '-')) {
                at++;
            }
            if (!digits(false)) {
                return false;
            }
        }
        return at - from <= MAX_NUMBER_CHARACTERS && (at == json.length || !isWordCharacter(json[at]));
    }

    /** @param integerPart whether these are the digits before the point, where a leading zero stands alone */
    private boolean digits(boolean integerPart) {
        int from = at;
        while (at < json.length && json[at] >= '0' && json[at] <= '9') {
            at++;
        }
        int count = at - from;
        return count > 0 && !(integerPart && count > 1 && json[from] == '0');
    }

    /** A ts as an integer of at most {@link #MAX_TS_DIGITS} digits; null for any other number or none. */
    private Long integer() {
        int from = at;
        boolean negative = at < json.length && json[at] == '-';
        if (!number()) {
            return null;
        }
        int digitsFrom = negative ? from + 1 : from;
        long value = 0;
        for (int i = digitsFrom; i < at; i++) {
            byte b = json[i];
            if (b < '0' || b > '9' || i - digitsFrom >= MAX_TS_DIGITS) {
                // a fraction, an exponent or too many digits
                return null;
            }
            value = value * 10 + (b - '0');
        }
        return negative ? -value : value;
    }

    /** What may not follow a number or a literal directly; JSON wants a separator there. */
    private static boolean isWordCharacter(byte b) {
        return (b >= 'a' && b <= 'z')
                || (b >= 'A' && b <= 'Z')
                || (b >= '0' && b <= '9')
                || b == '_'
                || b == '.'
                || b == '+'
                || b == '-';
    }
}
