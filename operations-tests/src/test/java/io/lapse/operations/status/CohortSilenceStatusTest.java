package io.lapse.operations.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.CohortEvent;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.operations.RigSettings;
import io.lapse.operations.cli.Show;
import io.lapse.store.fleet.CohortSilences;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * While a cohort silence is on (as the ingest that judges records it in Redis: CohortSilenceTest shows that it does),
 * lapse status names the cohort and exits 1, and lapse inspect of one of its orders says the order is in it, reading
 * the cohort from the order's push as a non-Java producer wrote it.
 */
@ExtendWith(RigPerClass.class)
@RigSettings({"fleet.cohort-field=operatorId"})
@Tag("slow")
class CohortSilenceStatusTest {

    private static OnCallRig rig;
    private static long since;

    @BeforeAll
    static void aCohortIsSilent(OnCallRig given) {
        rig = given;
        long now = System.currentTimeMillis();
        since = now - 120_000;
        push("south-7", "south", since - 15_000);
        push("north-3", "north", now - 5_000);
        new CohortSilences(rig.redis, rig.keys)
                .declare(new CohortEvent(
                        CohortEvent.Kind.COHORT_SILENCE_STARTED,
                        since + 30_000,
                        since,
                        rig.config.topics().push(),
                        "operatorId",
                        "south",
                        412,
                        398,
                        2.1,
                        27.5))
                .join();
    }

    private static void push(String orderId, String operator, long ts) {
        String push = "{\"orderId\":\"" + orderId + "\",\"status\":\"CHARGING\",\"ts\":" + ts + ",\"operatorId\":\""
                + operator + "\",\"kw\":11.0}";
        rig.send(rig.config.topics().push(), orderId, push.getBytes(StandardCharsets.UTF_8), ts);
    }

    @Test
    void statusNamesTheSilentCohortAndCallsItAProblem() {
        Lapse.Outcome outcome = rig.lapse("status", "--max-watermark-age", "1h", "--overdue-after", "1h");

        assertThat(outcome.exit()).as(outcome.err()).isEqualTo(1);
        assertThat(outcome.out())
                .contains(
                        "cohort silence south (operatorId) since " + Show.time(since) + " (",
                        " ago): about 398 of its 412 orders went silent together",
                        "  - cohort silence of south (operatorId) since " + Show.time(since));
        Lapse.Outcome json = rig.lapse("status", "--json", "--max-watermark-age", "1h", "--overdue-after", "1h");
        assertThat(json.json().get("cohortSilences").get(0).get("cohort").asText())
                .isEqualTo("south");
    }

    @Test
    void inspectSaysAnOrderIsInASilentCohortAndAnotherIsNot() {
        Lapse.Outcome silent = rig.lapse("inspect", "south-7");
        Lapse.Outcome pushing = rig.lapse("inspect", "north-3");

        assertThat(silent.out())
                .contains(
                        "  cohort       south (operatorId) is silent since " + Show.time(since) + " (",
                        " ago): about 398 of its 412 orders went silent together while the rest of the fleet pushes");
        assertThat(pushing.out()).contains("  cohort       north (operatorId), not silent");
    }
}
