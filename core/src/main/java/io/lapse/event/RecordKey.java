package io.lapse.event;

import java.nio.charset.StandardCharsets;

/** The contract's rule for a record's key: absent, or the orderId its value names (see docs/contract.md). */
public final class RecordKey {

    private RecordKey() {}

    /** @throws InvalidRecordException when the record has a key and it is not the orderId */
    public static void requireMatches(byte[] key, String orderId) {
        if (key != null && !matches(key, orderId)) {
            String text = new String(key, StandardCharsets.UTF_8);
            throw new InvalidRecordException("record key '" + text + "' differs from orderId '" + orderId + "'");
        }
    }

    /**
     * Compares an ASCII key byte by byte, without decoding it into a string of its own: ingest checks the key of every
     * record it reads. Any other key is decoded first.
     */
    private static boolean matches(byte[] key, String orderId) {
        if (key.length != orderId.length()) {
            return new String(key, StandardCharsets.UTF_8).equals(orderId);
        }
        for (int i = 0; i < key.length; i++) {
            if (key[i] < 0) {
                return new String(key, StandardCharsets.UTF_8).equals(orderId);
            }
            if (key[i] != orderId.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
