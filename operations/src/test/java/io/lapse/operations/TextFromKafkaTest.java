package io.lapse.operations;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.event.PullResult;
import io.lapse.event.StatusHeader;
import io.lapse.operations.cli.Json;
import io.lapse.operations.dlq.RedriveReport;
import io.lapse.operations.inspect.FiringHold;
import io.lapse.operations.inspect.InspectReport;
import io.lapse.operations.inspect.OrderHistory;
import io.lapse.operations.replay.ReplayReport;
import io.lapse.store.AuditLog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Keys, statuses, reasons and errors read from Kafka or Redis, as the on-call commands show them: a newline in them
 * does not start a line of its own, an escape sequence does not drive the terminal.
 */
class TextFromKafkaTest {

    private static final String FORGED = "\u001b[2J\n12:00:00 fired everything\u007f\u009b";
    private static final String SHOWN = "\\u001b[2J\\u000a12:00:00 fired everything\\u007f\\u009b";
    private static final long AT = 1_763_900_000_000L;

    @Test
    void inspectShowsStatusesErrorsCopyHeadersAndReasonsEscaped() {
        InspectReport report = new InspectReport(
                "o-1",
                3,
                "ARMED",
                new FiringHold("not held", List.of()),
                1,
                AT,
                AT + 90_000,
                null,
                null,
                new OrderHistory.Status("push/0@1", "CHARGING" + FORGED, AT),
                List.of(new OrderHistory.Entry<>(
                        "push/0@1", AT, new StatusHeader("o-1", "CHARGING" + FORGED, AT), "push/0@0" + FORGED)),
                1,
                List.of(),
                0,
                List.of(new OrderHistory.Entry<>(
                        "pulled/0@5",
                        AT,
                        new PullResult("o-1", PullResult.Outcome.FAILED, null, AT, null, "HTTP 500" + FORGED),
                        null)),
                1,
                List.of(new AuditLog.Entry(AT, "fire", "o-1", "stuck" + FORGED, "oncall")),
                "2025-11-23T11:00:00Z");

        String printed = printed(out -> report.print(out, AT));

        assertThat(printed).contains("last status  CHARGING" + SHOWN, "(copy of push/0@0" + SHOWN, "(HTTP 500" + SHOWN);
        assertThat(printed).contains("fire by oncall: stuck" + SHOWN);
        assertOneHarmlessLineEach(printed, 12);
    }

    @Test
    void replayAndRedriveShowKeysTopicsAndErrorsEscaped() {
        ReplayReport replay = new ReplayReport(
                "push",
                "push",
                "from",
                "to",
                null,
                true,
                1,
                null,
                0,
                0,
                0,
                0,
                0,
                1,
                0,
                0,
                "refused" + FORGED,
                List.of("push/0@1 key k" + FORGED),
                Map.of("push/0", 1L),
                5);
        RedriveReport redrive = new RedriveReport(
                true,
                2,
                "",
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                1,
                "refused" + FORGED,
                List.of("topic" + FORGED + "/0@1 (dead letter dlq/0@1)"),
                List.of("topic" + FORGED + "/0@2 (dead letter dlq/0@2): cut"));

        String replayed = printed(replay::print);
        String redriven = printed(redrive::print);

        assertThat(replayed).contains("would publish push/0@1 key k" + SHOWN, "first failure: refused" + SHOWN);
        assertOneHarmlessLineEach(replayed, 3);
        assertThat(redriven).contains("would publish topic" + SHOWN, "not redriven topic" + SHOWN, "refused" + SHOWN);
        assertOneHarmlessLineEach(redriven, 3);
    }

    @Test
    void jsonEscapesEveryControlCharacterAndReadsBackAsWritten() throws Exception {
        record Letter(String key) {}

        String printed = printed(out -> Json.print(out, new Letter("k" + FORGED)));

        assertThat(printed).contains("\"k\\u001B[2J\\n12:00:00 fired everything\\u007F\\u009B\"");
        assertThat(printed.replace(System.lineSeparator(), "")).doesNotContainPattern("\\p{Cntrl}|[\\x{80}-\\x{9f}]");
        assertThat(new ObjectMapper()
                        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                        .readTree(printed)
                        .get("key")
                        .asText())
                .isEqualTo("k" + FORGED);
    }

    private static String printed(Consumer<PrintWriter> print) {
        StringWriter text = new StringWriter();
        print.accept(new PrintWriter(text, true));
        return text.toString();
    }

    private static void assertOneHarmlessLineEach(String printed, int lines) {
        assertThat(printed).hasLineCount(lines);
        assertThat(printed.replace(System.lineSeparator(), "")).doesNotContainPattern("\\p{Cntrl}|[\\x{80}-\\x{9f}]");
    }
}
