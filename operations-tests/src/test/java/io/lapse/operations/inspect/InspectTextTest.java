package io.lapse.operations.inspect;

import static io.lapse.operations.TextFromKafka.AT;
import static io.lapse.operations.TextFromKafka.FORGED;
import static io.lapse.operations.TextFromKafka.SHOWN;
import static io.lapse.operations.TextFromKafka.assertOneHarmlessLineEach;
import static io.lapse.operations.TextFromKafka.printed;
import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.PullResult;
import io.lapse.event.StatusHeader;
import io.lapse.store.oncall.AuditLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What lapse inspect shows of text read from Kafka or Redis: escaped, one line each (see TextFromKafka). */
class InspectTextTest {

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
                "2025-11-23T11:00:00Z",
                null);

        String printed = printed(out -> report.print(out, AT));

        assertThat(printed).contains("last status  CHARGING" + SHOWN, "(copy of push/0@0" + SHOWN, "(HTTP 500" + SHOWN);
        assertThat(printed).contains("fire by oncall: stuck" + SHOWN);
        assertOneHarmlessLineEach(printed, 12);
    }
}
