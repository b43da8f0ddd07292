package io.lapse.ingest.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.config.ConfigSource;
import io.lapse.config.FleetSettings;
import io.lapse.event.CohortEvent;
import io.lapse.store.fleet.CohortSpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The judge over the history every ingest instance counted, at the default settings (30 s window over a 10 min
 * baseline, 50 %, cohorts of 100 orders or more): orders push every 15 s, and the judge checks once a span (5 s).
 */
class CohortJudgeTest {

    private static final FleetSettings SETTINGS =
            FleetSettings.from(ConfigSource.defaults().with(Map.of("fleet.cohort-field", "operatorId")));
    private static final long SPAN = CohortSilenceWatch.span(SETTINGS).toMillis();
    private static final int PUSH_EVERY_SPANS = 3;

    private final CohortHistory history =
            new CohortHistory(SETTINGS.window(), SETTINGS.baseline(), Duration.ofMillis(SPAN), 1000);
    private final List<CohortEvent> published = new ArrayList<>();
    /** Orders watched (pushing or silent), those of them pushing, and those finishing in the next span, by cohort. */
    private final Map<String, Integer> watched = new LinkedHashMap<>();

    private final Map<String, Integer> pushing = new LinkedHashMap<>();
    private final Map<String, Integer> finishing = new HashMap<>();
    private long now = 1_700_000_000_000L - Math.floorMod(1_700_000_000_000L, SPAN);
    private CohortJudge judge = judge(Map.of());

    private CohortJudge judge(Map<String, CohortEvent> on) {
        return judge(SETTINGS, on);
    }

    private static CohortJudge judge(FleetSettings settings, Map<String, CohortEvent> on) {
        return new CohortJudge(settings.cohorts(), SilenceRule.of(settings), settings.minPushesPerSecond(), "push", on);
    }

    /** Runs the fleet span by span for this long, the judge checking after each span. */
    private void run(Duration time) throws Exception {
        for (long t = 0; t < time.toMillis(); t += SPAN) {
            Map<String, CohortSpan.Count> counts = new HashMap<>();
            long all = 0;
            long allFinished = 0;
            for (Map.Entry<String, Integer> cohort : pushing.entrySet()) {
                int ending = finishing.getOrDefault(cohort.getKey(), 0);
                // an order pushes every third span; one finishing sends its terminal push instead
                long pushes = cohort.getValue() / PUSH_EVERY_SPANS - ending;
                counts.put(cohort.getKey(), new CohortSpan.Count(pushes, ending));
                all += pushes;
                allFinished += ending;
                cohort.setValue(cohort.getValue() - ending);
                watched.merge(cohort.getKey(), -ending, Integer::sum);
            }
            finishing.clear();
            history.put(
                    new CohortSpan(now, new CohortSpan.Count(all, allFinished), counts),
                    judge.on().keySet());
            now += SPAN;
            // silent orders stay watched: each fires and is pulled, and goes on being watched
            long watchedNow =
                    watched.values().stream().mapToLong(Integer::longValue).sum();
            judge.check(now, history, watchedNow, published::add);
        }
    }

    private void fleetOf(Map<String, Integer> orders) {
        pushing.putAll(orders);
        watched.putAll(orders);
    }

    @Test
    void aCohortGoingSilentIsOneStartWithinTwoWindowsAndOneEndWhenItsOrdersPushAgain() throws Exception {
        fleetOf(Map.of("op-1", 1_000, "op-2", 3_000, "op-3", 6_000));
        run(Duration.ofMinutes(11));
        assertThat(published).isEmpty();

        long stopped = now;
        pushing.put("op-1", 0);
        run(Duration.ofSeconds(60));

        assertThat(published).singleElement().satisfies(started -> {
            assertThat(started.event()).isEqualTo(CohortEvent.Kind.COHORT_SILENCE_STARTED);
            assertThat(started.cohort()).isEqualTo("op-1");
            assertThat(started.cohortOf()).isEqualTo("operatorId");
            assertThat(started.at() - stopped)
                    .isLessThanOrEqualTo(2 * SETTINGS.window().toMillis());
            assertThat(started.since()).isBetween(stopped, stopped + SPAN);
            assertThat((double) started.orders()).isCloseTo(1_000, Offset.offset(50.0));
            assertThat((double) started.silentOrders()).isCloseTo(1_000, Offset.offset(50.0));
        });
        run(Duration.ofMinutes(3));
        assertThat(published).as("one start, however long it lasts").hasSize(1);

        pushing.put("op-1", 1_000);
        run(Duration.ofSeconds(30));
        assertThat(published).hasSize(2);
        CohortEvent ended = published.get(1);
        assertThat(ended.event()).isEqualTo(CohortEvent.Kind.COHORT_SILENCE_ENDED);
        assertThat(ended.since()).isEqualTo(published.get(0).since());
        assertThat((double) ended.orders()).as("orders pushing again").isCloseTo(1_000, Offset.offset(50.0));
        assertThat(judge.on()).isEmpty();
    }

    @Test
    void theWholeFleetFallingSilentIsNoCohortsSilence() throws Exception {
        fleetOf(Map.of("op-1", 1_000, "op-2", 3_000, "op-3", 6_000));
        run(Duration.ofMinutes(11));

        pushing.replaceAll((cohort, orders) -> 0);
        run(Duration.ofMinutes(2));

        assertThat(published).isEmpty();
    }

    @Test
    void ordersThatFinishAreNotSilentEvenMostOfACohortAtOnce() throws Exception {
        fleetOf(Map.of("op-1", 1_000, "op-2", 3_000, "op-3", 6_000));
        run(Duration.ofMinutes(11));

        for (int span = 0; span < 4; span++) {
            finishing.put("op-1", 150);
            run(Duration.ofMillis(SPAN));
        }
        run(Duration.ofMinutes(2));

        assertThat(pushing.get("op-1")).isEqualTo(400);
        assertThat(published).isEmpty();
    }

    @Test
    void aCohortSmallerThanTheLeastJudgedIsNeverSilent() throws Exception {
        fleetOf(Map.of("op-1", 60, "op-2", 3_000, "op-3", 6_000));
        run(Duration.ofMinutes(11));

        pushing.put("op-1", 0);
        run(Duration.ofMinutes(2));

        assertThat(published).isEmpty();
        assertThat(CohortJudge.judgeable(history, 9_060, 0.5, 100, 1)).isEqualTo(2);
    }

    @Test
    void aJudgeThatTakesOverASilenceFromTheTopicStartsNoSecondOneAndEndsIt() throws Exception {
        fleetOf(Map.of("op-1", 1_000, "op-2", 3_000, "op-3", 6_000));
        run(Duration.ofMinutes(11));
        pushing.put("op-1", 0);
        run(Duration.ofSeconds(60));
        CohortEvent started = published.get(0);

        // another instance takes over: it knows the silence from the topic, and the history from Redis
        judge = judge(Map.of("op-1", started));
        run(Duration.ofMinutes(1));
        assertThat(published).hasSize(1);

        pushing.put("op-1", 1_000);
        run(Duration.ofSeconds(30));
        assertThat(published)
                .extracting(CohortEvent::event)
                .containsExactly(CohortEvent.Kind.COHORT_SILENCE_STARTED, CohortEvent.Kind.COHORT_SILENCE_ENDED);
        assertThat(Set.copyOf(judge.on().keySet())).isEmpty();
    }

    @Test
    void theEndCountsTheOrdersPushingAgainNotTheWindowStillMostlySilent() throws Exception {
        // a cohort of 70 is judged only below the default least of 100 (as in the fault suite's cohort-silence)
        judge = judge(
                FleetSettings.from(ConfigSource.defaults()
                        .with(Map.of("fleet.cohort-field", "operatorId", "fleet.cohort-min-orders", "20"))),
                Map.of());
        fleetOf(Map.of("op-1", 70, "op-2", 3_000, "op-3", 6_000));
        run(Duration.ofMinutes(11));
        pushing.put("op-1", 0);
        run(Duration.ofMinutes(2));
        assertThat(published)
                .singleElement()
                .extracting(CohortEvent::event)
                .isEqualTo(CohortEvent.Kind.COHORT_SILENCE_STARTED);

        // all 70 push again; the end is decided once the window's rate reaches 1 push/s, two spans in
        pushing.put("op-1", 70);
        run(Duration.ofSeconds(30));

        assertThat(published).hasSize(2);
        CohortEvent ended = published.get(1);
        assertThat(ended.event()).isEqualTo(CohortEvent.Kind.COHORT_SILENCE_ENDED);
        assertThat((double) ended.orders()).as("orders pushing again").isCloseTo(70, Offset.offset(7.0));
        assertThat((double) ended.silentOrders()).as("orders still silent").isCloseTo(0, Offset.offset(7.0));
        assertThat(ended.pushesPerSecond()).as("over the whole window").isLessThan(ended.baselinePushesPerSecond());
    }
}
