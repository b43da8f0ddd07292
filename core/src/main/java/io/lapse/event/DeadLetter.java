package io.lapse.event;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.Base64;

/**
 * A record Lapse could not process, kept whole for on-call.
 *
 * @param value the original record value, base64
 * @param key   the original record key, or null when it had none
 */
@JsonPropertyOrder({"reason", "sourceTopic", "partition", "offset", "key", "value", "at"})
public record DeadLetter(String reason, String sourceTopic, int partition, long offset, String key, String value,
                         long at) {

    public static DeadLetter of(String reason, String sourceTopic, int partition, long offset, String key,
                                byte[] value, long at) {
        String encoded = value == null ? null : Base64.getEncoder().encodeToString(value);
        return new DeadLetter(reason, sourceTopic, partition, offset, key, encoded, at);
    }

    public byte[] originalValue() {
        return value == null ? null : Base64.getDecoder().decode(value);
    }
}
