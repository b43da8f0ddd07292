package io.lapse.faults.soak.fault;

import io.lapse.bench.report.MarkdownTable;
import io.lapse.bench.storm.StormResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What the soak's fleet-silence storm measured: the storm benchmark's figures (and goals) on the soak's processes, and
 * what the benchmark does not count: how many fleet-silence events came, and whether an order that finished during
 * the storm was pulled after upstream answered its terminal status.
 *
 * @param figures             the storm benchmark's figures, its goals among them
 * @param silenceStarts       SILENCE_STARTED records on charging.fleet.events over the whole run
 * @param silenceEnds         SILENCE_ENDED records over the whole run
 * @param stormOrders         orders with an expiry while the pushes were stopped
 * @param finishedInStorm     orders whose pull answered a terminal status from the storm's start on
 * @param pulledAfterTerminal of those, the ones pulled again (a result other than SKIPPED) after that answer
 * @param plot                the PNG of the backlog and the drain, with a CSV of its samples beside it
 */
public record StormOutcome(
        StormResult figures,
        int silenceStarts,
        int silenceEnds,
        int stormOrders,
        int finishedInStorm,
        int pulledAfterTerminal,
        Path plot) {

    /** The bound on upstream calls per order that needed a pull, per ttl of silence. */
    public static final double MOST_CALLS_PER_ORDER = 1.05;
    /** The bound on the timer's lateness p99 in a storm. */
    static final long MOST_LATENESS_P99_MILLIS = 5_000;

    /** One goal of the issue beside what the run measured. */
    record Goal(String figure, String measured, String goal, boolean met) {}

    public StormOutcome {
        if (silenceStarts < 0 || silenceEnds < 0 || stormOrders < 0 || finishedInStorm < 0) {
            throw new IllegalArgumentException("negative counts");
        }
        if (pulledAfterTerminal < 0 || pulledAfterTerminal > finishedInStorm) {
            throw new IllegalArgumentException(
                    pulledAfterTerminal + " of " + finishedInStorm + " finished orders pulled after their end");
        }
    }

    /** Whether the storm was said once: one start and one end of the condition. */
    public boolean saidOnce() {
        return silenceStarts == 1 && silenceEnds == 1;
    }

    List<Goal> goals() {
        StormResult r = figures;
        return List.of(
                new Goal(
                        "expiries/s, peak over 1 s",
                        perSecond(r.rates().peakPerSecond()),
                        "≥ " + perSecond(r.goalExpiriesPerSecond()) + " (orders ÷ push interval)",
                        r.rates().peakPerSecond() >= r.goalExpiriesPerSecond()),
                new Goal(
                        "expiries/s sustained over the storm's first ttl",
                        perSecond(r.rates().firstTtlPerSecond()),
                        "≥ " + perSecond(r.goalFirstTtlPerSecond()) + " (orders ÷ ttl)",
                        r.rates().firstTtlPerSecond() >= r.goalFirstTtlPerSecond()),
                new Goal(
                        "timer lateness p99 (p50 / max)",
                        seconds(r.lateness().p99()) + " ("
                                + seconds(r.lateness().p50()) + " / "
                                + seconds(r.lateness().max()) + ")",
                        "≤ " + seconds(MOST_LATENESS_P99_MILLIS),
                        r.lateness().p99() <= MOST_LATENESS_P99_MILLIS),
                new Goal(
                        "upstream calls ÷ orders needing a pull, per ttl",
                        String.format(
                                Locale.ROOT,
                                "%.3f (%,d calls; worst ttl %.3f)",
                                r.callsPerOrder(),
                                r.upstreamCalls(),
                                r.calls().worstWindow()),
                        "≤ " + MOST_CALLS_PER_ORDER,
                        r.callsPerOrder() <= MOST_CALLS_PER_ORDER),
                new Goal(
                        "silent orders pulled",
                        String.format(Locale.ROOT, "%,d of %,d", r.pulledOrders(), stormOrders),
                        "all",
                        r.pulledOrders() == stormOrders),
                new Goal(
                        "last silent order first pulled, after the fleet's first expiry",
                        seconds(r.lastPulledMs()) + " (peak backlog " + count(r.peakBacklog()) + "; "
                                + count(r.laterCallsBeforeLastPulled()) + " repeat calls before it)",
                        "≤ " + seconds(r.goalLastPulledMs()) + " (orders ÷ rate limit + 10 s)",
                        r.lastPulledMs() <= r.goalLastPulledMs()),
                new Goal(
                        "false expiries after pushes resume",
                        count(r.falseAfterResume()) + " of " + count(r.expiriesAfterResume()),
                        "0",
                        r.falseAfterResume() == 0),
                new Goal(
                        "fleet silence raised / cleared",
                        silenceStarts + " start, " + silenceEnds + " end; raised " + after(r.silenceStartedMs())
                                + " after the pushes stopped, cleared " + after(r.silenceEndedMs())
                                + " after they resumed",
                        "one start, one end",
                        saidOnce()),
                new Goal(
                        "orders finished during the storm pulled after their terminal status",
                        count(pulledAfterTerminal) + " of " + count(finishedInStorm),
                        "0",
                        pulledAfterTerminal == 0));
    }

    /** The goals as a Markdown table, each met or not met beside the figures. */
    public String markdown() {
        MarkdownTable table = new MarkdownTable("figure", "measured", "goal", "met");
        for (Goal goal : goals()) {
            table.row(goal.figure(), goal.measured(), goal.goal(), goal.met() ? "met" : "**not met**");
        }
        return table
                + String.format(
                        Locale.ROOT,
                        "%nThe storm's orders: the %,d with an expiry while the pushes were stopped. "
                                + "Expiries/s and lateness: the expiries fired while the pushes were stopped, by "
                                + "Kafka's append time (lateness of the %,d attempt-1 ones). Calls: those the "
                                + "simulated upstream answered from the storm's start on, over the orders the "
                                + "puller called in each ttl-long window (%,d order-windows). False after resume: "
                                + "fired after the resume for an order that sent a push in (deadline − ttl, "
                                + "deadline], timed by its CreateTime (a finished order's push carries the moment "
                                + "it finished and goes out up to a push interval later). The last first pull counts "
                                + "from the fleet's first expiry: the first due at least a ttl less a push interval "
                                + "after the pushes stopped, an order that was pushing then (those due earlier are "
                                + "orders silent before the storm). Backlog and drain: %s "
                                + "(and its samples as CSV beside it). %s%n",
                        stormOrders,
                        figures.lateness().count(),
                        figures.calls().orderWindows(),
                        plot.getFileName(),
                        figures.latenessParts().sentence());
    }

    private static String perSecond(double rate) {
        return String.format(Locale.ROOT, "%,.0f", rate);
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String after(OptionalLong millis) {
        return millis.isPresent() ? seconds(millis.getAsLong()) : "never";
    }
}
