package io.lapse.devstack;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Records that no Lapse topic accepts, each of a kind seen to stop a consumer once: every decoder must turn each into
 * one dead letter (or, in the compensator, drop it) and carry on. Each is built around an orderId, so that a test can
 * tell its dead letter apart; where the kind allows, the key is that orderId.
 */
public enum Poison {

    /** Schema Registry framing in front of a push: Jackson takes the four zero bytes for UTF-32. */
    UTF32_LOOKALIKE {
        @Override
        public byte[] value(String orderId) {
            return concat(new byte[] {0, 0, 0, 0, 1}, utf8(push(orderId)));
        }
    },
    /** Bytes that are not UTF-8 inside an otherwise fine value. */
    INVALID_UTF8 {
        @Override
        public byte[] value(String orderId) {
            return concat(
                    utf8("{\"orderId\":\"" + orderId + "\",\"status\":\"CHARG"),
                    concat(new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xff}, utf8("\"}")));
        }
    },
    /** A value nested 5,000 levels deep. */
    DEEP_NESTING {
        @Override
        public byte[] value(String orderId) {
            return utf8("{\"orderId\":\"" + orderId + "\",\"status\":\"CHARGING\",\"payload\":" + "[".repeat(5_000)
                    + "]".repeat(5_000) + "}");
        }
    },
    /** 900 KB that are no JSON at all: its dead letter must not exceed Kafka's 1 MiB once base64-encoded. */
    HUGE_NOT_JSON {
        @Override
        public byte[] value(String orderId) {
            byte[] value = new byte[900 * 1024];
            Arrays.fill(value, (byte) 'x');
            byte[] id = utf8(orderId);
            System.arraycopy(id, 0, value, 0, id.length);
            return value;
        }
    },
    /** JSON of the wrong shape, and no key. */
    WRONG_TYPES {
        @Override
        public byte[] key(String orderId) {
            return null;
        }

        @Override
        public byte[] value(String orderId) {
            return utf8("{\"orderId\":{\"id\":\"" + orderId + "\"},\"status\":[1],\"ts\":\"yesterday\","
                    + "\"outcome\":7,\"deadline\":\"soon\"}");
        }
    },
    /** No value (a tombstone), and no key. */
    NULL_KEY_AND_VALUE {
        @Override
        public byte[] key(String orderId) {
            return null;
        }

        @Override
        public byte[] value(String orderId) {
            return null;
        }
    },
    /** An orderId (and key) of 10 KB. */
    LONG_ORDER_ID {
        @Override
        public byte[] key(String orderId) {
            return utf8(longId(orderId));
        }

        @Override
        public byte[] value(String orderId) {
            return utf8(push(longId(orderId)));
        }
    };

    /** The record key; the orderId unless the kind says otherwise. */
    public byte[] key(String orderId) {
        return utf8(orderId);
    }

    public abstract byte[] value(String orderId);

    private static String push(String orderId) {
        return "{\"orderId\":\"" + orderId + "\",\"status\":\"CHARGING\",\"ts\":" + System.currentTimeMillis() + "}";
    }

    private static String longId(String orderId) {
        return orderId + "-" + "x".repeat(10 * 1024);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(a.length + b.length);
        out.writeBytes(a);
        out.writeBytes(b);
        return out.toByteArray();
    }
}
