package io.lapse.event;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The text of one named top-level field of a push (a string's characters or an integer's digits), taken while the push's
 * header is read, so that a push is scanned once whatever else is read from it. It points into the push's bytes rather
 * than copying them: reading it allocates nothing. Mutable and reused from one push to the next, by one thread.
 */
public final class FieldCapture {

    private final String name;
    private final byte[] nameBytes;
    private byte[] source;
    private int from;
    private int to;

    public FieldCapture(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a field to capture needs a name");
        }
        this.name = name;
        this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether the push last read had the field, as a string or an integer that is not negative. */
    public boolean found() {
        return source != null;
    }

    /** The bytes the field's text lies in, from {@link #from()} to before {@link #to()}; null when not found. */
    public byte[] source() {
        return source;
    }

    public int from() {
        return from;
    }

    public int to() {
        return to;
    }

    void clear() {
        source = null;
    }

    /** Whether the name between {@code from} and {@code to} (exclusive) is this field's, in a plain push's bytes. */
    boolean names(byte[] json, int from, int to) {
        if (to - from != nameBytes.length) {
            return false;
        }
        for (int i = 0; i < nameBytes.length; i++) {
            if (json[from + i] != nameBytes[i]) {
                return false;
            }
        }
        return true;
    }

    void found(byte[] json, int from, int to) {
        this.source = json;
        this.from = from;
        this.to = to;
    }

    /**
     * Takes the field from a push data binding read (one not of the plain shape: escapes, characters beyond ASCII), by
     * the scan's rules: the last of its top-level fields of this name, when that is a string without control
     * characters or an integer that is not negative, as written.
     */
    void takeFrom(byte[] json) {
        clear();
        String text = null;
        try (JsonParser parser = JsonCodec.parser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean named = name.equals(parser.currentName());
                JsonToken value = parser.nextToken();
                if (named) {
                    text = value == JsonToken.VALUE_STRING
                                    || (value == JsonToken.VALUE_NUMBER_INT
                                            && !parser.getText().startsWith("-"))
                            ? parser.getText()
                            : null;
                }
                parser.skipChildren();
            }
        } catch (IOException | RuntimeException e) {
            return; // data binding read the value; a field this parser cannot read names no cohort
        }
        if (text == null || text.chars().anyMatch(Character::isISOControl)) {
            return;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        found(bytes, 0, bytes.length);
    }
}
