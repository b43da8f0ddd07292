package io.lapse.ingest.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.store.fleet.CohortSpan;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CohortTallyTest {

    private static final long SPAN = 5_000;
    private static final long T0 = 1_700_000_000_000L - Math.floorMod(1_700_000_000_000L, SPAN);

    private final CohortTally tally = new CohortTally(Duration.ofMillis(SPAN), 4);

    private void push(String cohort, boolean ended) {
        // the name lies inside a push's bytes, as ingest finds it
        byte[] push = ("{\"operatorId\":\"" + cohort + "\"}").getBytes(StandardCharsets.UTF_8);
        tally.count(push, 15, 15 + cohort.length(), ended);
    }

    @Test
    void eachSpanIsHandedOverOnceAPollIsReadAfterItsEnd() {
        tally.at(T0 + 10);
        push("north", false);
        push("north", false);
        push("north", true);
        push("south", false);
        tally.countWithoutCohort(false);
        tally.at(T0 + SPAN - 1);
        assertThat(tally.takeDone()).isEmpty();

        tally.at(T0 + SPAN);
        push("south", false);
        tally.at(T0 + 3 * SPAN);

        List<CohortSpan> done = tally.takeDone();
        assertThat(done).hasSize(2);
        CohortSpan first = done.get(0);
        assertThat(first.start()).isEqualTo(T0);
        assertThat(first.all()).isEqualTo(new CohortSpan.Count(4, 1));
        assertThat(first.of("north")).isEqualTo(new CohortSpan.Count(2, 1));
        assertThat(first.of("south")).isEqualTo(new CohortSpan.Count(1, 0));
        assertThat(done.get(1).start()).isEqualTo(T0 + SPAN);
        assertThat(done.get(1).cohorts()).containsOnlyKeys("south");
        assertThat(tally.takeDone()).as("handed over once").isEmpty();
    }

    @Test
    void aFloodOfRareValuesNeverTakesTheRoomOfABusyCohort() {
        tally.at(T0);
        for (int span = 0; span < 20; span++) {
            for (int i = 0; i < 50; i++) {
                push("busy", false);
            }
            // more values than the tally has room for, each pushed once
            for (int i = 0; i < 10; i++) {
                push("id-" + span + "-" + i, false);
            }
            tally.at(T0 + (span + 1) * SPAN);
        }

        List<CohortSpan> done = tally.takeDone();
        assertThat(done).hasSize(12); // the most kept while nobody takes them
        assertThat(done).allSatisfy(span -> {
            assertThat(span.of("busy").pushes()).isEqualTo(50);
            assertThat(span.cohorts()).hasSizeLessThanOrEqualTo(4);
            assertThat(span.all().pushes())
                    .as("every push counts for the fleet")
                    .isEqualTo(60);
        });
        assertThat(tally.unplaced()).isGreaterThan(0);
    }
}
