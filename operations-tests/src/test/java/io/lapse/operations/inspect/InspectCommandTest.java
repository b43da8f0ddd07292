package io.lapse.operations.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.timers.OrderView;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** lapse inspect of a silent, a finished and an unknown order, with ingest, timer and puller running. */
@ExtendWith(RigPerClass.class)
@Tag("slow")
class InspectCommandTest {

    private static OnCallRig rig;

    @BeforeAll
    static void runAWhile(OnCallRig given) {
        rig = given;
        UpstreamSimulator upstream = rig.startUpstream(Duration.ofMillis(400));
        rig.startIngest();
        rig.startTimer();
        rig.startPuller(upstream);
        Fleet fleet = upstream.fleet();
        fleet.start("i-silent");
        fleet.start("i-done");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.store.inspect(List.of("i-silent", "i-done")).join().values().stream()
                        .allMatch(OrderView::isWatched));
        fleet.silence("i-silent");
        fleet.finish("i-done");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.records(rig.config.topics().pulled()).stream()
                        .anyMatch(r -> new String(r.key()).equals("i-silent")));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.store
                                .inspect(List.of("i-done"))
                                .join()
                                .get("i-done")
                                .phase()
                        == OrderView.Phase.ENDED);
    }

    @Test
    void aSilentOrderShowsItsTimerItsExpiriesAndItsPulls() {
        Lapse.Outcome outcome = rig.lapse("inspect", "i-silent");

        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out())
                .contains(
                        "order i-silent (shard " + rig.keys.shardOf("i-silent") + ")",
                        "last status  CHARGING, ts ",
                        "tombstone    none",
                        "attempt 1  deadline ",
                        "source timer",
                        "OK CHARGING ts ",
                        "for attempt 1  at " + rig.config.topics().pulled() + "/");
        assertThat(outcome.out()).containsPattern("expiries     [1-9]\\d* since ");
        assertThat(rig.lapse("inspect", "i-silent", "--last", "0").out())
                .contains("older (--last shows more)")
                .doesNotContain("source timer");
    }

    @Test
    void aFinishedOrderShowsItsTombstoneAndTheStatusThatEndedIt() {
        Lapse.Outcome outcome = rig.lapse("inspect", "i-done", "--json");

        assertThat(outcome.exit()).isZero();
        JsonNode found = outcome.json();
        assertThat(found.get("phase").asText()).isEqualTo("ENDED");
        assertThat(found.get("lastStatus").get("status").asText()).isEqualTo("FINISHED");
        assertThat(found.get("tombstoneUntil").isNumber()).isTrue();
        assertThat(found.get("expiries")).isEmpty();
        Lapse.Outcome text = rig.lapse("inspect", "i-done");
        assertThat(text.out()).contains("timer        finished at ", "last status  FINISHED", "tombstone    since ");
    }

    @Test
    void anUnknownOrderIsAFindingOnOneLineNotAnError() {
        Lapse.Outcome outcome = rig.lapse("inspect", "i-never");

        assertThat(outcome.exit())
                .as("1: found nothing; 2 is for bad usage and unreachable infrastructure")
                .isEqualTo(1);
        assertThat(outcome.out()).isEmpty();
        assertThat(outcome.err())
                .isEqualTo("lapse inspect: unknown order 'i-never': neither Redis nor the topics within --lookback 1h "
                        + "know it (a longer --lookback looks further back)\n");
    }
}
