package io.lapse.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Arrays;
import java.util.Base64;

/**
 * A record Lapse could not process, kept for on-call: whole when it is small, else a prefix of it. A dead letter must
 * never be refused for its size (Kafka's default limit is 1 MiB, and base64 makes a value a third larger), or the
 * batch behind it would be retried for ever.
 *
 * @param key       the original record key, or null when it had none
 * @param value     the original record value, base64; only its first {@link #MAX_VALUE_BYTES} bytes when truncated
 * @param valueSize the original value's length in bytes, when it was truncated; else null (left out of the JSON)
 * @param truncated true when the value, the key or the reason was cut to its limit; else null (left out)
 */
@JsonPropertyOrder({"reason", "sourceTopic", "partition", "offset", "key", "value", "at", "valueSize", "truncated"})
public record DeadLetter(
        String reason,
        String sourceTopic,
        int partition,
        long offset,
        String key,
        String value,
        long at,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer valueSize,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean truncated) {

    /** Most bytes of the original value a dead letter keeps. */
    public static final int MAX_VALUE_BYTES = 64 * 1024;
    /** Most characters of the original key, and of the reason, a dead letter keeps. */
    public static final int MAX_TEXT_CHARS = 1024;

    public static DeadLetter of(
            String reason, String sourceTopic, int partition, long offset, String key, byte[] value, long at) {
        boolean valueCut = value != null && value.length > MAX_VALUE_BYTES;
        boolean cut = valueCut || longer(key) || longer(reason);
        String encoded = value == null
                ? null
                : Base64.getEncoder().encodeToString(valueCut ? Arrays.copyOf(value, MAX_VALUE_BYTES) : value);
        return new DeadLetter(
                prefix(reason),
                sourceTopic,
                partition,
                offset,
                prefix(key),
                encoded,
                at,
                valueCut ? value.length : null,
                cut ? Boolean.TRUE : null);
    }

    private static boolean longer(String text) {
        return text != null && text.length() > MAX_TEXT_CHARS;
    }

    private static String prefix(String text) {
        if (!longer(text)) {
            return text;
        }
        // never half a surrogate pair, which JSON cannot carry
        return text.substring(
                0, Character.isHighSurrogate(text.charAt(MAX_TEXT_CHARS - 1)) ? MAX_TEXT_CHARS - 1 : MAX_TEXT_CHARS);
    }

    /** This letter without any of the value, for a dead-letter topic whose size limit is below even the prefix. */
    public DeadLetter withoutValue(int originalSize) {
        return new DeadLetter(reason, sourceTopic, partition, offset, key, null, at, originalSize, Boolean.TRUE);
    }

    /** The original value, or its first {@link #MAX_VALUE_BYTES} bytes when the letter is truncated. */
    public byte[] originalValue() {
        return value == null ? null : Base64.getDecoder().decode(value);
    }
}
