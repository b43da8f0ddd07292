package io.lapse.operations.dlq;

import io.lapse.event.DeadLetter;
import io.lapse.event.JsonCodec;
import io.lapse.internal.ControlCharacters;
import io.lapse.operations.kafka.Coordinate;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record of the dead-letter topic: where it is, and the dead letter it holds.
 *
 * @param key    the record's key: the original record's key bytes
 * @param letter null when the record is no DeadLetter (then {@code problem} says why)
 */
record DeadLetterRecord(Coordinate at, long timestamp, byte[] key, DeadLetter letter, String problem) {

    private static final int PREFIX = 80;

    static DeadLetterRecord of(ConsumerRecord<byte[], byte[]> record) {
        try {
            return new DeadLetterRecord(
                    Coordinate.of(record),
                    record.timestamp(),
                    record.key(),
                    JsonCodec.DEAD_LETTER.decode(record.value()),
                    null);
        } catch (RuntimeException e) {
            return new DeadLetterRecord(Coordinate.of(record), record.timestamp(), record.key(), null, e.getMessage());
        }
    }

    String reason() {
        return letter == null ? "not a DeadLetter: " + problem : letter.reason();
    }

    /** Where the original record was, or null when unknown. */
    Coordinate source() {
        return letter == null || letter.sourceTopic() == null
                ? null
                : new Coordinate(letter.sourceTopic(), letter.partition(), letter.offset());
    }

    /** The original key's bytes, from the record key, or from the letter when the record has none. */
    byte[] originalKey() {
        if (key != null || letter == null || letter.key() == null) {
            return key;
        }
        return letter.key().getBytes(StandardCharsets.UTF_8);
    }

    /** The start of the original value as text, control characters escaped, for a person to recognise it. */
    String valuePrefix() {
        byte[] value = letter == null ? null : letter.originalValue();
        if (value == null) {
            return "(no value)";
        }
        String text = new String(value, StandardCharsets.UTF_8);
        String shown = ControlCharacters.escape(text.substring(
                0, text.offsetByCodePoints(0, Math.min(PREFIX, text.codePointCount(0, text.length())))));
        return shown + (text.codePointCount(0, text.length()) > PREFIX ? "…" : "") + "  (" + value.length + " bytes)";
    }

    /** The first bytes of the original value in hex, for a value that is no text; empty when it has none. */
    String valueHex() {
        byte[] value = letter == null || letter.originalValue() == null ? new byte[0] : letter.originalValue();
        int shown = Math.min(PREFIX, value.length);
        return java.util.HexFormat.ofDelimiter(" ").formatHex(value, 0, shown) + (value.length > shown ? " …" : "");
    }

    /** Whether the dead letter kept less than the whole value, so publishing its copy would publish a corrupt record. */
    boolean isCut() {
        return letter != null && letter.valueSize() != null;
    }

    /** How many bytes of the value the dead letter kept. */
    int keptBytes() {
        byte[] value = letter == null ? null : letter.originalValue();
        return value == null ? 0 : value.length;
    }
}
