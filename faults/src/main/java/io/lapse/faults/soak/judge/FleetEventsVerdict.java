package io.lapse.faults.soak.judge;

import io.lapse.config.Durations;
import io.lapse.event.CohortEvent;
import io.lapse.event.FleetEvent;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The soak's reading of {@code topics.fleet-events} against what the load did: with a silent cohort, one
 * {@code COHORT_SILENCE_STARTED} naming it within two {@code fleet.window}s of its silence and one
 * {@code COHORT_SILENCE_ENDED} after its pushes resumed; and no other fleet or cohort event at all, since the churn
 * (sessions ending and starting, missed pushes, a few orders silent for good, spread over the cohorts) is no
 * silence.
 *
 * @param truth  the silent cohort; empty when none went silent
 * @param window {@code fleet.window}
 * @param from   the run's start, epoch ms, against which times are told
 */
public record FleetEventsVerdict(
        Optional<CohortSilenceTruth> truth,
        boolean silenceExpected,
        List<CohortEvent> cohortEvents,
        List<FleetEvent> fleetEvents,
        Duration window,
        long from) {

    /** The goal: the silence is announced within this many windows of its start. */
    public static final int WINDOWS = 2;

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    public FleetEventsVerdict {
        cohortEvents = List.copyOf(cohortEvents);
        fleetEvents = List.copyOf(fleetEvents);
    }

    /** The first start naming the silent cohort. */
    Optional<CohortEvent> started() {
        return truth.flatMap(t -> cohortEvents.stream()
                .filter(e -> e.event() == CohortEvent.Kind.COHORT_SILENCE_STARTED
                        && e.cohort().equals(t.cohort()))
                .findFirst());
    }

    /** The first end naming the silent cohort after its start. */
    Optional<CohortEvent> ended() {
        return started()
                .flatMap(start -> cohortEvents.stream()
                        .filter(e -> e.event() == CohortEvent.Kind.COHORT_SILENCE_ENDED
                                && e.cohort().equals(start.cohort())
                                && e.at() >= start.at())
                        .findFirst());
    }

    /** From the cohort's silence to its start, in windows; empty without either. */
    Optional<Double> startedAfterWindows() {
        return truth.flatMap(t -> started().map(e -> windows(e.at() - t.silencedAt())));
    }

    boolean announcedInTime() {
        return startedAfterWindows().map(w -> w <= WINDOWS).orElse(false);
    }

    /** Whether the end came after the pushes resumed; false when they did not resume or it did not come. */
    boolean endedAfterResume() {
        return truth.filter(t -> t.resumedAt() > 0)
                .flatMap(t -> ended().map(e -> e.at() >= t.resumedAt()))
                .orElse(false);
    }

    /** Every fleet event, and every cohort event but the silent cohort's one start and one end. */
    List<Object> others() {
        List<Object> others = new ArrayList<>(fleetEvents);
        Optional<CohortEvent> started = started();
        Optional<CohortEvent> ended = ended();
        for (CohortEvent e : cohortEvents) {
            if (!(started.isPresent() && e == started.get()) && !(ended.isPresent() && e == ended.get())) {
                others.add(e);
            }
        }
        others.sort(Comparator.comparingLong(FleetEventsVerdict::at));
        return others;
    }

    public boolean holds() {
        boolean silenceTold = !silenceExpected || (announcedInTime() && endedAfterResume());
        return silenceTold && others().isEmpty();
    }

    public String markdown() {
        StringBuilder out = new StringBuilder("Fleet events (topics.fleet-events, read committed), fleet.window "
                + Durations.format(window) + ":\n\n");
        if (truth.isEmpty()) {
            out.append(silenceExpected ? "- the load silenced no cohort: NOT MET\n" : "");
        } else {
            CohortSilenceTruth t = truth.get();
            out.append(String.format(
                    Locale.ROOT,
                    "- cohort %s: its %,d active orders stopped pushing at %s%n",
                    t.cohort(),
                    t.orders(),
                    when(t.silencedAt())));
            out.append(started()
                    .map(e -> String.format(
                            Locale.ROOT,
                            "- COHORT_SILENCE_STARTED at %s: %.2f windows after (goal: within %d): %s; since %s; names"
                                    + " %,d silent of %,d orders (truth: %,d silent, %.2f of them)%n",
                            when(e.at()),
                            windows(e.at() - t.silencedAt()),
                            WINDOWS,
                            announcedInTime() ? "met" : "NOT MET",
                            when(e.since()),
                            e.silentOrders(),
                            e.orders(),
                            t.orders(),
                            t.orders() == 0 ? Double.NaN : (double) e.silentOrders() / t.orders()))
                    .orElse("- COHORT_SILENCE_STARTED: none: NOT MET\n"));
            out.append(
                    t.resumedAt() == 0
                            ? "- its orders did not push again before the end\n"
                            : String.format(Locale.ROOT, "- its orders pushed again at %s%n", when(t.resumedAt())));
            out.append(ended().map(e -> String.format(
                            Locale.ROOT,
                            "- COHORT_SILENCE_ENDED at %s: %s; %,d orders pushing again, %,d not back%n",
                            when(e.at()),
                            t.resumedAt() == 0
                                    ? "before the pushes resumed: NOT MET"
                                    : String.format(
                                            Locale.ROOT,
                                            "%.2f windows after they pushed again%s",
                                            windows(e.at() - t.resumedAt()),
                                            endedAfterResume() ? "" : ": NOT MET"),
                            e.orders(),
                            e.silentOrders()))
                    .orElse("- COHORT_SILENCE_ENDED: none" + (silenceExpected ? ": NOT MET" : "") + "\n"));
        }
        List<Object> others = others();
        out.append(String.format(
                Locale.ROOT,
                "- other fleet or cohort events: %d (goal: none): %s%n",
                others.size(),
                others.isEmpty() ? "met" : "NOT MET"));
        for (Object e : others) {
            out.append("  - ").append(describe(e)).append('\n');
        }
        return out.toString();
    }

    private String describe(Object event) {
        if (event instanceof CohortEvent e) {
            return String.format(
                    Locale.ROOT,
                    "%s at %s, since %s: cohort %s, %,d orders, %,d silent, %.1f pushes/s against %.1f",
                    e.event(),
                    when(e.at()),
                    when(e.since()),
                    e.cohort(),
                    e.orders(),
                    e.silentOrders(),
                    e.pushesPerSecond(),
                    e.baselinePushesPerSecond());
        }
        FleetEvent e = (FleetEvent) event;
        return String.format(
                Locale.ROOT,
                "%s at %s, since %s: %,d orders watched, silent share %.3f",
                e.event(),
                when(e.at()),
                when(e.since()),
                e.watchedOrders(),
                e.silentShare());
    }

    private static long at(Object event) {
        return event instanceof CohortEvent e ? e.at() : ((FleetEvent) event).at();
    }

    private double windows(long millis) {
        return (double) millis / window.toMillis();
    }

    /** Wall clock (UTC) and seconds into the run. */
    private String when(long epochMillis) {
        return String.format(
                Locale.ROOT,
                "%s (%.1f s in)",
                CLOCK.format(Instant.ofEpochMilli(epochMillis)),
                (epochMillis - from) / 1000.0);
    }
}
