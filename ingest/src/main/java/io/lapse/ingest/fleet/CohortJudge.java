package io.lapse.ingest.fleet;

import io.lapse.config.CohortSettings;
import io.lapse.event.CohortEvent;
import io.lapse.store.fleet.CohortSpan;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides cohort silences while this ingest instance judges (the fleet judge's term): which cohorts are silent, which
 * of those speak again, from the pushes every instance counted ({@link CohortHistory}). A cohort is silent when the
 * pushes of a share of its orders ({@code fleet.cohort-silent-percent}) are missing over the last window against its
 * baseline, while the rest of the fleet pushes on (a fleet-wide silence is the fleet's, not a cohort's); it must look
 * so at two checks running. Orders that finished (a terminal push) are not silent: each adds back what it would have
 * pushed. Orders are counted from pushes with the fleet's mean push interval (watched orders ÷ the fleet's baseline
 * pushes per second): a cohort of fewer than {@code fleet.cohort-min-orders} is never judged. It speaks again by the
 * same {@link SilenceRule} as a push partition, against its baseline from before its silence; its orders pushing again
 * are counted from the spans since it came back, as its silent orders are from the spans since it fell silent.
 */
final class CohortJudge {

    /** Publishes an event, or fails (the judge was fenced out, the broker did not answer). */
    @FunctionalInterface
    interface Publisher {
        void publish(CohortEvent event) throws Exception;
    }

    /** A cohort must look silent at this many checks in a row. */
    static final int CHECKS_TO_START = 2;

    private static final Logger log = LoggerFactory.getLogger(CohortJudge.class);

    private final CohortSettings settings;
    private final SilenceRule cohortRule;
    private final SilenceRule fleetRule;
    private final String pushTopic;
    private final Map<String, CohortEvent> on;
    private final Map<String, Double> quietest = new HashMap<>();
    private final Map<String, Integer> looksSilent = new HashMap<>();

    /** @param on the cohort silences on as the events topic says, by cohort */
    CohortJudge(
            CohortSettings settings,
            SilenceRule fleetRule,
            int minPushesPerSecond,
            String pushTopic,
            Map<String, CohortEvent> on) {
        this.settings = settings;
        this.cohortRule = new SilenceRule(1 - settings.silentPercent() / 100.0, minPushesPerSecond);
        this.fleetRule = fleetRule;
        this.pushTopic = pushTopic;
        this.on = new TreeMap<>(on);
        on.forEach((cohort, started) -> quietest.put(cohort, started.pushesPerSecond()));
    }

    /** The cohort silences on, by cohort. */
    Map<String, CohortEvent> on() {
        return Map.copyOf(on);
    }

    /** A cohort's pushes per span falling to this share of its baseline counts as silent. */
    double keptShare() {
        return cohortRule.keptShare();
    }

    /**
     * Judges every cohort held and every cohort silent now, publishing each start and end; a failed publication
     * leaves the judge as it was for that cohort and ends the check.
     *
     * @param watched the orders Redis watches now, to turn pushes into orders
     */
    void check(long at, CohortHistory history, long watched, Publisher publisher) throws Exception {
        Optional<CohortHistory.Figures> fleet = history.fleet(cohortRule.keptShare());
        double interval = fleet.map(f -> pushInterval(watched, f)).orElse(Double.NaN);
        Set<String> judged = new LinkedHashSet<>(on.keySet());
        judged.addAll(history.cohorts());
        looksSilent.keySet().retainAll(judged);
        for (String cohort : judged) {
            CohortEvent silence = on.get(cohort);
            if (silence != null) {
                checkEnd(at, cohort, silence, history, interval, publisher);
            } else if (fleet.isPresent() && !Double.isNaN(interval)) {
                checkStart(at, cohort, history, fleet.get(), interval, publisher);
            }
        }
    }

    /** How many cohorts are big enough to judge, with the fleet's push interval now. */
    static long judgeable(CohortHistory history, long watched, double keptShare, int minOrders, double leastRate) {
        Optional<CohortHistory.Figures> fleet = history.fleet(keptShare);
        if (fleet.isEmpty()) {
            return 0;
        }
        double interval = pushInterval(watched, fleet.get());
        if (Double.isNaN(interval)) {
            return 0;
        }
        return history.cohorts().stream()
                .map(c -> history.cohort(c, keptShare, Optional.empty()))
                .flatMap(Optional::stream)
                .filter(f ->
                        f.baselinePushesPerSecond() >= leastRate && f.baselinePushesPerSecond() * interval >= minOrders)
                .count();
    }

    private void checkStart(
            long at,
            String cohort,
            CohortHistory history,
            CohortHistory.Figures fleet,
            double interval,
            Publisher publisher)
            throws Exception {
        Optional<CohortHistory.Figures> found = history.cohort(cohort, cohortRule.keptShare(), Optional.empty());
        if (found.isEmpty()) {
            looksSilent.remove(cohort);
            return;
        }
        CohortHistory.Figures figures = found.get();
        double baseline = figures.baselinePushesPerSecond();
        double orders = baseline * interval;
        double now = pushingOrFinished(figures, interval);
        double restNow = pushingOrFinished(fleet, interval) - now;
        double restBaseline = fleet.baselinePushesPerSecond() - baseline;
        boolean restPushes = fleetRule.judges(restBaseline) && !fleetRule.fellSilent(restNow, restBaseline);
        boolean silent = orders >= settings.minOrders()
                && cohortRule.judges(baseline)
                && cohortRule.fellSilent(now, baseline)
                && restPushes;
        if (!silent) {
            looksSilent.remove(cohort);
            return;
        }
        if (looksSilent.merge(cohort, 1, Integer::sum) < CHECKS_TO_START) {
            return;
        }
        CohortEvent started = new CohortEvent(
                CohortEvent.Kind.COHORT_SILENCE_STARTED,
                at,
                Math.min(figures.lowSince(), at),
                pushTopic,
                settings.describe(),
                cohort,
                Math.round(orders),
                Math.round(Math.max(0, baseline - quietNow(figures, now, interval)) * interval),
                figures.pushesPerSecond(),
                baseline);
        publisher.publish(started);
        on.put(cohort, started);
        quietest.put(cohort, now);
        looksSilent.remove(cohort);
        log.warn(
                "cohort silence: about {} of the {} orders of cohort {} ({}) went silent together since {} (pushes "
                        + "per second {} against {} before) while the rest of the fleet pushes on. Every order fires "
                        + "and is pulled; lapse status and the fleet events topic name the cohort",
                started.silentOrders(),
                started.orders(),
                cohort,
                settings.describe(),
                Instant.ofEpochMilli(started.since()),
                Math.round(figures.pushesPerSecond() * 10) / 10.0,
                Math.round(baseline * 10) / 10.0);
    }

    private void checkEnd(
            long at, String cohort, CohortEvent silence, CohortHistory history, double interval, Publisher publisher)
            throws Exception {
        double baseline = silence.baselinePushesPerSecond();
        Optional<CohortHistory.Figures> found = history.cohort(cohort, cohortRule.keptShare(), Optional.of(baseline));
        if (found.isEmpty()) {
            return; // not counted for a whole window yet (this judge just took over, or Redis lost the counts)
        }
        double known = Double.isNaN(interval) ? 0 : interval;
        double now = pushingOrFinished(found.get(), known);
        double quietestNow = quietest.merge(cohort, now, Math::min);
        if (!cohortRule.speaksAgain(now, baseline, quietestNow)) {
            return;
        }
        double back = backNow(history, cohort, baseline, quietestNow, known, now);
        CohortEvent ended = silence.ended(
                at,
                Math.round(back * known),
                Math.round(Math.max(0, baseline - back) * known),
                found.get().pushesPerSecond());
        publisher.publish(ended);
        on.remove(cohort);
        quietest.remove(cohort);
        log.info(
                "cohort silence over: the orders of cohort {} ({}) push again after {} s",
                cohort,
                settings.describe(),
                (at - silence.since()) / 1000);
    }

    /**
     * Pushes per second over the window, with what the orders that finished since the baseline began would have
     * pushed added back (one push per push interval, for the share of the baseline they counted in): an order that
     * finished is not silent.
     */
    private static double pushingOrFinished(CohortHistory.Figures figures, double interval) {
        return withFinished(figures.pushesPerSecond(), figures.finished(), interval);
    }

    /** Pushes per second with orders that finished added back, each as one push per push interval. */
    private static double withFinished(double pushesPerSecond, double finished, double interval) {
        return interval > 0 ? pushesPerSecond + finished / interval : pushesPerSecond;
    }

    /**
     * What the cohort pushes since its silence began (its spans low enough to count as silent), finished orders added
     * back: the window mixes those spans with the ones before.
     */
    private static double quietNow(CohortHistory.Figures figures, double now, double interval) {
        if (Double.isNaN(figures.lowPushesPerSecond())) {
            return now;
        }
        return withFinished(figures.lowPushesPerSecond(), figures.finished(), interval);
    }

    /**
     * What the cohort pushes since it came back (its newest spans in a row that each speak again), finished orders
     * added back: the window that ends a silence is still mostly the silence's, so its rate counts too few orders
     * back, as {@link #quietNow} counts only the silent spans at the start. The window's rate when no span alone
     * speaks again.
     */
    private double backNow(
            CohortHistory history, String cohort, double baseline, double quietest, double interval, double window) {
        double spanSeconds = history.spanMillis() / 1000.0;
        long pushes = 0;
        long finished = 0;
        int spans = 0;
        for (CohortSpan.Count span : history.window(cohort)) {
            double rate = withFinished(span.pushes() / spanSeconds, span.finished(), interval);
            if (!cohortRule.speaksAgain(rate, baseline, quietest)) {
                break;
            }
            pushes += span.pushes();
            finished += span.finished();
            spans++;
        }
        if (spans == 0) {
            return window;
        }
        return withFinished(pushes / (spans * spanSeconds), finished, interval);
    }

    /** Seconds between two pushes of an order, on average over the fleet; NaN while unknown. */
    private static double pushInterval(long watched, CohortHistory.Figures fleet) {
        return watched > 0 && fleet.baselinePushesPerSecond() > 0
                ? watched / fleet.baselinePushesPerSecond()
                : Double.NaN;
    }
}
