package io.lapse.event;

import java.nio.charset.StandardCharsets;

/** The contract's rule for a record's key: absent, or the orderId its value names (see docs/contract.md). */
public final class RecordKey {

    private RecordKey() {}

    /** @throws InvalidRecordException when the record has a key and it is not the orderId */
    public static void requireMatches(byte[] key, String orderId) {
        if (key != null) {
            String text = new String(key, StandardCharsets.UTF_8);
            if (!text.equals(orderId)) {
                throw new InvalidRecordException("record key '" + text + "' differs from orderId '" + orderId + "'");
            }
        }
    }
}
