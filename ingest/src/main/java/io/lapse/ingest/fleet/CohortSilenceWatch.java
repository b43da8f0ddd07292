package io.lapse.ingest.fleet;

import io.lapse.config.CohortSettings;
import io.lapse.config.FleetSettings;
import io.lapse.event.CohortEvent;
import io.lapse.store.fleet.CohortSilences;
import io.lapse.store.fleet.CohortSpan;
import io.lapse.store.fleet.CohortTallies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Tells cohort silences, at every fleet silence check: every ingest instance adds the pushes per cohort it read in
 * each span of time to Redis ({@link CohortTally}, {@link CohortTallies}), where the spans sum every instance's counts,
 * and reads back the spans every instance added into its own {@link CohortHistory} (a new instance reads the whole
 * baseline back at once); the instance that judges fleet silences judges cohorts too ({@link CohortJudge}), with the
 * same writer of events. Redis keeps a copy of the silences on ({@link CohortSilences}) for the gauges, lapse status
 * and the console; the events topic is the record, which a judge reads when its term begins, so that Redis losing
 * the copy or the counts starts no second silence.
 *
 * <p>Only the fleet watch's thread calls it. {@link #off} does nothing but show zeros.
 */
public final class CohortSilenceWatch {

    private static final long TIMEOUT_SECONDS = 10;

    private final CohortSettings settings;
    private final FleetSettings fleet;
    private final String pushTopic;
    private final CohortTally tally;
    private final CohortTallies tallies;
    private final CohortSilences silences;
    private final Supplier<CompletableFuture<Long>> watchedOrders;
    private final CohortGauges gauges;
    private final CohortHistory history;
    private final long spanMillis;
    /** The fleet judge whose term {@link #judge} belongs to; null while this instance does not judge. */
    private FleetJudge term;

    private CohortJudge judge;

    /**
     * @param tally         the pushes ingest reads, per cohort; null when cohorts are not told
     * @param watchedOrders how many orders the timer store watches, to turn pushes into orders
     */
    public CohortSilenceWatch(
            FleetSettings fleet,
            String pushTopic,
            CohortTally tally,
            CohortTallies tallies,
            CohortSilences silences,
            Supplier<CompletableFuture<Long>> watchedOrders,
            CohortGauges gauges) {
        this.settings = fleet.cohorts();
        this.fleet = fleet;
        this.pushTopic = pushTopic;
        this.tally = tally;
        this.tallies = tallies;
        this.silences = silences;
        this.watchedOrders = watchedOrders;
        this.gauges = gauges;
        this.spanMillis = span(fleet).toMillis();
        this.history = new CohortHistory(fleet.window(), fleet.baseline(), span(fleet), settings.limit());
    }

    /** A watch for a deployment that tells no cohorts: its gauges show zeros. */
    public static CohortSilenceWatch off(FleetSettings fleet, String pushTopic, CohortGauges gauges) {
        return new CohortSilenceWatch(fleet, pushTopic, null, null, null, null, gauges);
    }

    /** The span of time one count covers: the fleet watch's check interval, a sixth of the window. */
    public static Duration span(FleetSettings fleet) {
        return fleet.checkInterval();
    }

    /** The tally ingest counts each push in, sized for {@code fleet.cohort-limit} cohorts. */
    public static CohortTally tally(FleetSettings fleet) {
        return new CohortTally(span(fleet), 2 * fleet.cohorts().limit());
    }

    /**
     * Adds the spans this instance closed since the last check to Redis, and reads back the spans every instance has
     * added to since (again those of the last window, which slower instances may have added to meanwhile).
     */
    void measure(long now) throws Exception {
        if (tally == null) {
            return;
        }
        Duration keep = Duration.ofMillis((history.spans() + 4L) * spanMillis);
        List<CompletableFuture<Void>> added = new ArrayList<>();
        for (CohortSpan span : tally.takeDone()) {
            added.add(tallies.add(span, keep));
        }
        for (CompletableFuture<Void> add : added) {
            await(add);
        }
        // a span is read once every instance has closed it (at its first poll after the span) and added it (at its
        // next check): two spans after its end, and a second for the polls
        long latest = now - 2 * spanMillis - 1000;
        latest = latest - Math.floorMod(latest, spanMillis) - spanMillis;
        long oldest = latest - (history.spans() - 1L) * spanMillis;
        long from = history.newest()
                .map(newest -> Math.max(oldest, newest - history.windowSpans() * spanMillis))
                .orElse(oldest);
        List<CompletableFuture<CohortSpan>> reads = new ArrayList<>();
        for (long start = from; start <= latest; start += spanMillis) {
            reads.add(tallies.read(start));
        }
        Set<String> pinned = judge == null ? Set.of() : judge.on().keySet();
        for (CompletableFuture<CohortSpan> read : reads) {
            history.put(await(read), pinned);
        }
    }

    /** While another instance judges: shows the silences it recorded in Redis. */
    void show() throws Exception {
        if (tally == null) {
            gauges.show(Map.of(), 0);
            return;
        }
        Map<String, CohortEvent> recorded = await(silences.current());
        gauges.show(recorded, judgeable(await(watchedOrders.get())));
    }

    /**
     * While this instance judges fleet silences: judges the cohorts, publishing with the fleet judge's writer, and
     * writes Redis's copy of the silences on again where it differs.
     *
     * @throws FleetJudge.FencedOut when another instance took over meanwhile
     */
    void judge(long at, FleetJudge fleetJudge) throws Exception {
        if (tally == null) {
            gauges.show(Map.of(), 0);
            return;
        }
        if (term != fleetJudge) {
            judge = new CohortJudge(
                    settings,
                    SilenceRule.of(fleet),
                    fleet.minPushesPerSecond(),
                    pushTopic,
                    fleetJudge.cohortSilencesOn());
            term = fleetJudge;
        }
        long watched = await(watchedOrders.get());
        judge.check(at, history, watched, fleetJudge::publish);
        Map<String, CohortEvent> on = judge.on();
        Map<String, CohortEvent> recorded = await(silences.current());
        for (Map.Entry<String, CohortEvent> silence : on.entrySet()) {
            if (!Objects.equals(recorded.get(silence.getKey()), silence.getValue())) {
                await(silences.declare(silence.getValue()));
            }
        }
        for (String cohort : recorded.keySet()) {
            if (!on.containsKey(cohort)) {
                await(silences.end(cohort));
            }
        }
        gauges.show(on, judgeable(watched));
    }

    /** Forgets the judge's term: the next one reads the silences on from the events topic again. */
    void stepDown() {
        term = null;
        judge = null;
    }

    private long judgeable(long watched) {
        return CohortJudge.judgeable(
                history,
                watched,
                1 - settings.silentPercent() / 100.0,
                settings.minOrders(),
                fleet.minPushesPerSecond());
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
