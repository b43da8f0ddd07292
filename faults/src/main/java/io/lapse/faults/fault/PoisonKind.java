package io.lapse.faults.fault;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * The bad records the poison scenario mixes into the push topic, each one that broke a consumer or the dead-letter
 * topic in the field or in the issue. Every one breaks the contract, so each must become exactly one dead letter.
 */
enum PoisonKind {

    /** Schema-Registry framing in front of valid JSON: Jackson guesses UTF-32 from the leading zero bytes. */
    UTF32_LOOKALIKE {
        @Override
        byte[] value(String orderId, long ts) {
            return framed(push(orderId, ts));
        }
    },
    /** Too big to be sent on base64-encoded whole in a dead letter (1 MiB is Kafka's default limit). */
    NON_JSON_900KB {
        @Override
        byte[] value(String orderId, long ts) {
            byte[] text = new byte[900_000];
            Random random = new Random(ts);
            for (int i = 0; i < text.length; i++) {
                text[i] = (byte) ('a' + random.nextInt(26));
            }
            return text;
        }
    },
    DEEP_NESTING {
        @Override
        byte[] value(String orderId, long ts) {
            String open = "[".repeat(NESTING);
            String close = "]".repeat(NESTING);
            return ("{\"orderId\":\"" + orderId + "\",\"status\":\"CHARGING\",\"ts\":" + ts + ",\"x\":" + open + close
                            + "}")
                    .getBytes(StandardCharsets.UTF_8);
        }
    },
    /** 0xC3 starts a two-byte sequence; 0x28 cannot continue it. */
    INVALID_UTF8 {
        @Override
        byte[] value(String orderId, long ts) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(("{\"orderId\":\"" + orderId).getBytes(StandardCharsets.UTF_8));
            out.write(0xC3);
            out.write(0x28);
            out.writeBytes(("\",\"status\":\"CHARGING\",\"ts\":" + ts + "}").getBytes(StandardCharsets.UTF_8));
            return out.toByteArray();
        }
    },
    WRONG_TYPES_NULL_KEY(true) {
        @Override
        byte[] value(String orderId, long ts) {
            return "{\"orderId\":{\"id\":1},\"status\":[\"CHARGING\"],\"ts\":\"yesterday\"}"
                    .getBytes(StandardCharsets.UTF_8);
        }
    },
    NULL_VALUE {
        @Override
        byte[] value(String orderId, long ts) {
            return null;
        }
    },
    NULL_KEY_AND_VALUE(true) {
        @Override
        byte[] value(String orderId, long ts) {
            return null;
        }
    },
    /** A JSON array of a million bytes, near Kafka's default record limit: valid JSON, not a StatusPush. */
    MEGABYTE_VALUE {
        @Override
        byte[] value(String orderId, long ts) {
            byte[] array = new byte[MEGABYTE];
            Arrays.fill(array, (byte) ' ');
            array[0] = '[';
            array[array.length - 1] = ']';
            return array;
        }
    },
    /** An orderId of 10 KB, as key and in the value: the contract allows 128 characters. */
    LONG_ORDER_ID {
        @Override
        byte[] key(String orderId) {
            return longId(orderId).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        byte[] value(String orderId, long ts) {
            return push(longId(orderId), ts);
        }
    };

    static final int NESTING = 5_000;
    static final int MEGABYTE = 1_000_000;
    static final int LONG_ID_LENGTH = 10_000;

    private final boolean keyless;

    PoisonKind() {
        this(false);
    }

    PoisonKind(boolean keyless) {
        this.keyless = keyless;
    }

    /** The record key: the orderId, or null for the keyless kinds. */
    byte[] key(String orderId) {
        return keyless ? null : orderId.getBytes(StandardCharsets.UTF_8);
    }

    abstract byte[] value(String orderId, long ts);

    /** The poison put once on the expired topic: a TimerExpired behind the same framing. */
    static byte[] framedExpiry(String orderId, long deadline) {
        return framed(("{\"orderId\":\"" + orderId + "\",\"deadline\":" + deadline + ",\"lastSeen\":" + (deadline - 1)
                        + ",\"attempt\":1,\"firedAt\":" + deadline + ",\"source\":\"timer\"}")
                .getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] framed(byte[] json) {
        byte[] value = new byte[json.length + 5];
        value[4] = 1;
        System.arraycopy(json, 0, value, 5, json.length);
        return value;
    }

    private static byte[] push(String orderId, long ts) {
        return ("{\"orderId\":\"" + orderId + "\",\"status\":\"CHARGING\",\"ts\":" + ts + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static String longId(String orderId) {
        return orderId + "x".repeat(LONG_ID_LENGTH - orderId.length());
    }
}
