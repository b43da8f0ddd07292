package io.lapse.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.devstack.Poison;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCodecTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode tree(byte[] json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void statusPushKeepsItsPayloadUntouchedThroughARoundTrip() {
        String json = "{\"orderId\":\"123456\",\"status\":\"CHARGING\",\"soc\":80,\"power\":4.5,\"ts\":1763780000000,"
                + "\"meter\":{\"kwh\":12.5}}";

        StatusPush push = JsonCodec.STATUS_PUSH.decode(utf8(json));

        assertThat(push.orderId()).isEqualTo("123456");
        assertThat(push.status()).isEqualTo("CHARGING");
        assertThat(push.ts()).isEqualTo(1763780000000L);
        assertThat(push.payload())
                .containsEntry("soc", 80)
                .containsEntry("power", 4.5)
                .containsEntry("meter", Map.of("kwh", 12.5));
        assertThat(tree(JsonCodec.STATUS_PUSH.encode(push))).isEqualTo(tree(utf8(json)));
    }

    @Test
    void statusPushWithoutTsDecodesWithNullTs() {
        StatusPush push = JsonCodec.STATUS_PUSH.decode(utf8("{\"orderId\":\"1\",\"status\":\"CHARGING\"}"));

        assertThat(push.ts()).isNull();
        assertThat(text(JsonCodec.STATUS_PUSH.encode(push))).isEqualTo("{\"orderId\":\"1\",\"status\":\"CHARGING\"}");
    }

    @Test
    void numericOrderIdIsReadAsText() {
        assertThat(JsonCodec.STATUS_PUSH
                        .decode(utf8("{\"orderId\":42,\"status\":\"CHARGING\"}"))
                        .orderId())
                .isEqualTo("42");
    }

    @Test
    void brokenInputIsRejectedWithAReasonSayingWhatIsWrong() {
        assertRejected("", "value is empty");
        assertRejected("null", "JSON null");
        assertRejected("{\"orderId\":\"1\",\"status\":", "not valid JSON");
        assertRejected("{\"orderId\":\"1\",\"status\":\"A\"} trailing", "not valid JSON");
        assertRejected("[1,2]", "not a valid StatusPush");
        assertRejected("{\"status\":\"CHARGING\"}", "orderId is missing");
        assertRejected("{\"orderId\":\"\",\"status\":\"CHARGING\"}", "orderId is missing");
        assertRejected("{\"orderId\":\"" + "x".repeat(129) + "\",\"status\":\"CHARGING\"}", "longer than 128");
        assertRejected("{\"orderId\":\"o-1\\n12:00 ERROR forged\",\"status\":\"CHARGING\"}", "control characters");
        assertRejected("{\"orderId\":\"1\"}", "status is missing");
        assertRejected("{\"orderId\":\"1\",\"status\":\"CHARGING\",\"ts\":-5}", "ts must be epoch milliseconds");
        assertRejected("{\"orderId\":\"1\",\"status\":\"CHARGING\",\"ts\":\"soon\"}", "(at ts)");
    }

    /** Ingest reads pushes as headers: a push must be rejected alike, and for the same reason, either way. */
    private static void assertRejected(String json, String reason) {
        for (JsonCodec<?> codec : List.of(JsonCodec.STATUS_PUSH, JsonCodec.STATUS_HEADER)) {
            assertThatThrownBy(() -> codec.decode(utf8(json)))
                    .isInstanceOf(InvalidRecordException.class)
                    .hasMessageContaining(reason);
        }
    }

    @Test
    void theHeaderOfAPushIsWhatTheWholePushSaysLessThePayload() {
        byte[] json = utf8("{\"soc\":80,\"orderId\":\"7\",\"power\":{\"kw\":[4.5]},\"status\":\"CHARGING\",\"ts\":9}");

        assertThat(JsonCodec.STATUS_HEADER.decode(json))
                .isEqualTo(JsonCodec.STATUS_PUSH.decode(json).header())
                .isEqualTo(new StatusHeader("7", "CHARGING", 9L));
    }

    /** The header is streamed in the common shape and bound otherwise: either way it is what the whole push says. */
    @Test
    void theHeaderOfEveryShapeOfPushIsWhatTheWholePushSays() {
        List<String> pushes = List.of(
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"soc\":80,\"power\":4.5,\"ts\":1763780000000}",
                "{\"meter\":{\"kwh\":[1,{\"a\":null}]},\"ts\":9,\"status\":\"FINISHED\",\"orderId\":\"o-\\u00e9\\\"x\"}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"ts\":null}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\"}",
                "{\"orderId\":\"ö7\",\"status\":\"CHARGING\",\"ts\":\"12\"}",
                "{\"orderId\":\"7\",\"status\":\"CHARGING\",\"ts\":12.0}",
                "{\"orderId\":7,\"status\":true,\"ts\":3}",
                " {\"orderId\":\"7\",\"status\":\"CHARGING\",\"ts\":5} ");

        for (String push : pushes) {
            assertThat(JsonCodec.STATUS_HEADER.decode(utf8(push)))
                    .as(push)
                    .isEqualTo(JsonCodec.STATUS_PUSH.decode(utf8(push)).header());
        }
    }

    @Test
    void timerExpiredMatchesTheContractAndSaysFinalOnlyOnTheLastAttempt() {
        TimerExpired expired = new TimerExpired(
                "123456", 1763780090000L, 1763780000000L, 1, 1763780090004L, TimerExpired.Source.TIMER, false);

        String json = text(JsonCodec.TIMER_EXPIRED.encode(expired));

        assertThat(json)
                .isEqualTo("{\"orderId\":\"123456\",\"deadline\":1763780090000,\"lastSeen\":1763780000000,"
                        + "\"attempt\":1,\"firedAt\":1763780090004,\"source\":\"timer\"}");
        assertThat(JsonCodec.TIMER_EXPIRED.decode(utf8(json))).isEqualTo(expired);
        TimerExpired last = new TimerExpired("1", 1, 1, 10, 2, TimerExpired.Source.COMPENSATOR, true);
        assertThat(text(JsonCodec.TIMER_EXPIRED.encode(last))).contains("\"source\":\"compensator\",\"final\":true");
        assertThat(JsonCodec.TIMER_EXPIRED
                        .decode(JsonCodec.TIMER_EXPIRED.encode(last))
                        .finalAttempt())
                .isTrue();
    }

    @Test
    void timerExpiredIsWrittenByItsOwnWriterAsDataBindingWritesItWhateverItsOrderId() {
        List<String> ids = List.of(
                "123456",
                "o-1",
                "a b~!#$%&'()*+,-./:;<=>?@[]^_`{|}",
                "quote\"d",
                "back\\slash",
                "tab\tline\n",
                "ctl\u0001\u001f",
                "del\u007f",
                "ünï-cödé",
                "emoji-\uD83D\uDE00",
                "x".repeat(128));
        for (String id : ids) {
            for (TimerExpired.Source source : TimerExpired.Source.values()) {
                for (boolean last : new boolean[] {false, true}) {
                    TimerExpired expiry = new TimerExpired(id, 1763780090000L, 0, 10, 1763780090004L, source, last);

                    assertThat(text(JsonCodec.TIMER_EXPIRED.encode(expiry)))
                            .as("%s %s %s", id, source, last)
                            .isEqualTo(text(JsonCodec.TIMER_EXPIRED.bound(expiry)));
                }
            }
        }
    }

    @Test
    void aManualExpirySaysSo() {
        TimerExpired manual = new TimerExpired("7", 5, 1, 2, 5, TimerExpired.Source.MANUAL, false);

        assertThat(text(JsonCodec.TIMER_EXPIRED.encode(manual))).contains("\"source\":\"manual\"");
        assertThat(JsonCodec.TIMER_EXPIRED.decode(JsonCodec.TIMER_EXPIRED.encode(manual)))
                .isEqualTo(manual);
    }

    @Test
    void timerExpiredWithoutItsRequiredNumbersIsRejected() {
        assertThatThrownBy(() -> JsonCodec.TIMER_EXPIRED.decode(utf8(
                        "{\"orderId\":\"1\",\"attempt\":1," + "\"source\":\"timer\",\"lastSeen\":1,\"firedAt\":2}")))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("deadline");
    }

    @Test
    void pullResultMatchesTheContract() {
        TimerExpired expiry = new TimerExpired(
                "123456", 1763780090000L, 1763780000000L, 1, 1763780090004L, TimerExpired.Source.TIMER, false);
        StatusPush status = JsonCodec.STATUS_PUSH.decode(
                utf8("{\"orderId\":\"123456\",\"status\":\"CHARGING\",\"soc\":81,\"power\":4.4,\"ts\":1763780091000}"));

        String json = text(JsonCodec.PULL_RESULT.encode(PullResult.ok(expiry, status, 1763780091020L)));

        assertThat(json)
                .isEqualTo("{\"orderId\":\"123456\",\"outcome\":\"OK\",\"status\":{\"orderId\":\"123456\","
                        + "\"status\":\"CHARGING\",\"ts\":1763780091000,\"soc\":81,\"power\":4.4},\"pulledAt\":1763780091020,"
                        + "\"expiry\":{\"deadline\":1763780090000,\"attempt\":1}}");
        assertThat(JsonCodec.PULL_RESULT.decode(utf8(json)).status()).isEqualTo(status);
    }

    @Test
    void pullResultThatClaimsOkWithoutAStatusIsRejected() {
        assertThatThrownBy(() ->
                        JsonCodec.PULL_RESULT.decode(utf8("{\"orderId\":\"1\",\"outcome\":\"OK\",\"pulledAt\":5}")))
                .hasMessageContaining("carries no status");
        assertThatThrownBy(() -> JsonCodec.PULL_RESULT.decode(utf8("{\"orderId\":\"1\",\"outcome\":\"MAYBE\"}")))
                .hasMessageContaining("not a valid PullResult (at outcome)");
    }

    @Test
    void deadLetterCarriesTheOriginalBytesAsBase64() {
        DeadLetter letter = DeadLetter.of("value is empty", "charging.status.push", 0, 42, "k", utf8("{oops"), 7);

        assertThat(text(JsonCodec.DEAD_LETTER.encode(letter)))
                .isEqualTo("{\"reason\":\"value is empty\","
                        + "\"sourceTopic\":\"charging.status.push\",\"partition\":0,\"offset\":42,\"key\":\"k\","
                        + "\"value\":\"e29vcHM=\",\"at\":7}");
        assertThat(text(letter.originalValue())).isEqualTo("{oops");
    }

    @Test
    void everyKindOfPoisonIsAnInvalidRecordForEveryCodec() {
        for (Poison poison : Poison.values()) {
            for (JsonCodec<?> codec : List.of(
                    JsonCodec.STATUS_PUSH, JsonCodec.STATUS_HEADER, JsonCodec.PULL_RESULT, JsonCodec.TIMER_EXPIRED)) {
                assertThatThrownBy(() -> codec.decode(poison.value("o1")))
                        .as("%s", poison)
                        .isInstanceOf(InvalidRecordException.class);
            }
        }
    }

    @Test
    void aValueThatLooksLikeUtf32SaysSo() {
        assertThatThrownBy(() -> JsonCodec.STATUS_HEADER.decode(Poison.UTF32_LOOKALIKE.value("o1")))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("not UTF-8 JSON");
    }

    @Test
    void aPayloadNestedDeeperThanTheLimitIsRejectedEvenWhereItIsSkipped() {
        String nested = "[".repeat(JsonCodec.MAX_NESTING_DEPTH + 1) + "]".repeat(JsonCodec.MAX_NESTING_DEPTH + 1);
        String json = "{\"orderId\":\"1\",\"status\":\"CHARGING\",\"p\":" + nested + "}";

        assertRejected(json, "nesting depth");
    }

    @Test
    void aLargeValueMakesADeadLetterOfBoundedSizeThatSaysItWasCut() {
        byte[] huge = Poison.HUGE_NOT_JSON.value("o1");
        String longKey = "k".repeat(10_000);

        DeadLetter letter = DeadLetter.of("r".repeat(5_000), "push", 0, 1, longKey, huge, 7);
        byte[] json = JsonCodec.DEAD_LETTER.encode(letter);

        assertThat(json.length).isLessThan(100 * 1024);
        assertThat(letter.truncated()).isTrue();
        assertThat(letter.valueSize()).isEqualTo(huge.length);
        assertThat(letter.originalValue())
                .hasSize(DeadLetter.MAX_VALUE_BYTES)
                .isEqualTo(java.util.Arrays.copyOf(huge, DeadLetter.MAX_VALUE_BYTES));
        assertThat(letter.key()).hasSize(DeadLetter.MAX_TEXT_CHARS);
        assertThat(letter.reason()).hasSize(DeadLetter.MAX_TEXT_CHARS);
        assertThat(JsonCodec.DEAD_LETTER.decode(json)).isEqualTo(letter);
    }
}
