package io.lapse.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StatusHeaderParserTest {

    private static final List<String> PUSHES = List.of(
            "{\"orderId\":\"o-17\",\"status\":\"CHARGING\",\"soc\":80,\"power\":4.5,\"ts\":1763780000000}",
            " {\"ts\" : -0 ,\"status\":\"FINISHED\",\"orderId\":\"7\",\"ok\":true,\"no\":false,\"x\":null,\"e\":-1.5E+3}\n",
            "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"ts\":null,\"meter\":{\"kwh\":[1, {\"a\":[]}],\"b\":{}}}",
            "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"p\":" + "[".repeat(15) + "]".repeat(15) + "}",
            "{}");
    /** Bytes that make or break JSON, and some that are not ASCII or not UTF-8. */
    private static final byte[] INSERTED = "{}[]\",:\\ -+.eE0129aflnrstu_\t\n".getBytes(StandardCharsets.UTF_8);

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aPushOfThePlainShapeIsReadAsDataBindingReadsIt() {
        for (String push : PUSHES) {
            byte[] json = utf8(push);

            assertThat(StatusHeaderParser.read(json)).as(push).isEqualTo(JsonCodec.STATUS_HEADER.bind(json));
        }
    }

    @Test
    void whatTheScanCannotReadPlainlyIsLeftToDataBinding() {
        for (String push : List.of(
                "{\"orderId\":\"o-\\u00e9\",\"status\":\"CHARGING\"}",
                "{\"orderId\":\"ö\",\"status\":\"CHARGING\"}",
                "{\"orderId\":7,\"status\":\"CHARGING\"}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"ts\":\"12\"}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"ts\":12.0}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"ts\":12345678901234567890}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"ts\":1,\"ts\":2}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"p\":" + "[".repeat(16) + "]".repeat(16) + "}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\"} x",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"n\":01}",
                "null")) {
            assertThat(StatusHeaderParser.read(utf8(push))).as(push).isNull();
        }
    }

    /**
     * Pushes broken and bent at random, a byte at a time: whatever the scan reads, data binding reads alike; whatever
     * data binding refuses, the scan leaves to it.
     */
    @Test
    void theScanNeverReadsAValueOtherwiseThanDataBinding() {
        Random random = new Random(24);
        int read = 0;
        for (int i = 0; i < 200_000; i++) {
            byte[] json = mutate(utf8(PUSHES.get(random.nextInt(PUSHES.size()))), random);
            StatusHeader scanned = StatusHeaderParser.read(json);
            if (scanned == null) {
                continue;
            }
            read++;
            String shown = new String(json, StandardCharsets.UTF_8);
            StatusHeader bound;
            try {
                bound = JsonCodec.STATUS_HEADER.bind(json);
            } catch (InvalidRecordException e) {
                throw new AssertionError("the scan read " + scanned + " from " + shown + ", data binding: " + e);
            }
            assertThat(scanned).as(shown).isEqualTo(bound);
        }
        // the mutations must leave a fair share readable, or this would prove little
        assertThat(read).isGreaterThan(10_000);
    }

    @Test
    void theCohortFieldIsTakenInTheSameScanAsAStringOrAnIntegerAndOtherwiseNot() {
        FieldCapture capture = new FieldCapture("operatorId");
        record Case(String push, String taken) {}
        for (Case c : List.of(
                new Case("{\"orderId\":\"7\",\"operatorId\":\"op-17\",\"status\":\"CHARGING\"}", "op-17"),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"operatorId\" : 17 }", "17"),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"operatorId\":\"\"}", ""),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"operatorId\":1.5}", null),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"operatorId\":-3}", null),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"operatorId\":{\"id\":\"x\"}}", null),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"meta\":{\"operatorId\":\"x\"}}", null),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"operatorIds\":\"x\"}", null),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"operatorId\":null}", null),
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\"}", null),
                // beyond the scan's plain shape: data binding reads it, and the field from its tree
                new Case("{\"orderId\":\"7\",\"status\":\"CHARGING\",\"operatorId\":\"B\\u00fchl\"}", "Bühl"),
                new Case("{\"orderId\":\"ö\",\"status\":\"CHARGING\",\"operatorId\":42}", "42"),
                new Case("{\"orderId\":\"ö\",\"status\":\"CHARGING\",\"operatorId\":\"a\\nb\"}", null))) {
            StatusHeader header = StatusHeader.read(utf8(c.push()), capture);

            assertThat(header).as(c.push()).isEqualTo(JsonCodec.STATUS_HEADER.decode(utf8(c.push())));
            String taken = capture.found()
                    ? new String(
                            capture.source(), capture.from(), capture.to() - capture.from(), StandardCharsets.UTF_8)
                    : null;
            assertThat(taken).as(c.push()).isEqualTo(c.taken());
        }
    }

    /** Whatever the scan takes from a push bent at random, data binding's tree of the same push holds the same. */
    @Test
    void theScanTakesTheFieldAsDataBindingReadsIt() {
        Random random = new Random(44);
        FieldCapture capture = new FieldCapture("op");
        FieldCapture bound = new FieldCapture("op");
        List<String> pushes = List.of(
                "{\"orderId\":\"o-17\",\"op\":\"north-3\",\"status\":\"CHARGING\",\"ts\":1763780000000}",
                "{\"op\":170,\"orderId\":\"7\",\"status\":\"CHARGING\",\"x\":{\"op\":\"no\"}}");
        int taken = 0;
        for (int i = 0; i < 100_000; i++) {
            byte[] json = mutate(utf8(pushes.get(random.nextInt(pushes.size()))), random);
            if (StatusHeaderParser.read(json, capture) == null) {
                continue;
            }
            bound.takeFrom(json);
            String shown = new String(json, StandardCharsets.UTF_8);
            assertThat(capture.found()).as(shown).isEqualTo(bound.found());
            if (capture.found()) {
                taken++;
                assertThat(Arrays.copyOfRange(capture.source(), capture.from(), capture.to()))
                        .as(shown)
                        .isEqualTo(Arrays.copyOfRange(bound.source(), bound.from(), bound.to()));
            }
        }
        assertThat(taken).isGreaterThan(5_000);
    }

    private static byte[] mutate(byte[] json, Random random) {
        byte[] out = json;
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = random.nextInt(out.length + 1);
            switch (random.nextInt(4)) {
                case 0 -> {
                    if (out.length > 0 && at < out.length) {
                        byte[] shorter = new byte[out.length - 1];
                        System.arraycopy(out, 0, shorter, 0, at);
                        System.arraycopy(out, at + 1, shorter, at, out.length - at - 1);
                        out = shorter;
                    }
                }
                case 1 -> {
                    byte[] longer = new byte[out.length + 1];
                    System.arraycopy(out, 0, longer, 0, at);
                    longer[at] = pick(random);
                    System.arraycopy(out, at, longer, at + 1, out.length - at);
                    out = longer;
                }
                case 2 -> {
                    if (at < out.length) {
                        out = Arrays.copyOf(out, out.length);
                        out[at] = pick(random);
                    }
                }
                default -> {
                    // a stretch repeated, which makes duplicate fields and doubled separators
                    int from = random.nextInt(out.length + 1);
                    int to = Math.min(out.length, from + random.nextInt(12));
                    byte[] longer = new byte[out.length + to - from];
                    System.arraycopy(out, 0, longer, 0, to);
                    System.arraycopy(out, from, longer, to, out.length - from);
                    out = longer;
                }
            }
        }
        return out;
    }

    private static byte pick(Random random) {
        int choice = random.nextInt(INSERTED.length + 4);
        return switch (choice - INSERTED.length) {
            case 0 -> 0;
            case 1 -> 0x7f;
            case 2 -> (byte) 0xc3;
            case 3 -> (byte) 0xff;
            default -> INSERTED[choice];
        };
    }
}
