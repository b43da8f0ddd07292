package io.lapse.bench.storm;

import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.bench.report.ReportFormat;
import io.lapse.config.Durations;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;

/** The storm run as Markdown: one table of figures beside their goals, and what each figure counts. */
final class StormReport {

    private StormReport() {}

    static String markdown(BenchEnvironment env, StormResult r, String plot, Duration took) {
        StormBenchOptions o = r.options();
        StringBuilder out = new StringBuilder("# Lapse expiry storm\n\n");
        out.append(env.line("Kafka broker, Redis, simulated upstream, ingest, timer and puller"));
        out.append(String.format(
                Locale.ROOT,
                "- %,d orders pushing every %s, timer.ttl %s; every push stops for %s while upstream answers pulls"
                        + " (latency %s), then resumes; upstream.rate-limit %,d/s, %d pull threads;"
                        + " fleet.window %s, fleet.baseline %s\n\n",
                o.orders(),
                Durations.format(o.pushInterval()),
                Durations.format(o.ttl()),
                Durations.format(o.silence()),
                Durations.format(o.latency()),
                o.rateLimit(),
                o.concurrency(),
                Durations.format(o.fleetWindow()),
                Durations.format(o.fleetBaseline())));
        MarkdownTable table = new MarkdownTable("figure", "measured", "goal");
        table.row(
                "expiries/s, peak over 1 s",
                perSecond(r.rates().peakPerSecond()),
                "≥ " + perSecond(r.goalExpiriesPerSecond()) + " (orders ÷ push interval)");
        table.row(
                "expiries/s over the storm's first ttl",
                perSecond(r.rates().firstTtlPerSecond()),
                "≥ " + perSecond(r.goalFirstTtlPerSecond()) + " (orders ÷ ttl)");
        table.row(
                "fire lateness p50 / p99 / max",
                ReportFormat.millis(r.lateness().p50()) + " / "
                        + ReportFormat.millis(r.lateness().p99()) + " / "
                        + ReportFormat.millis(r.lateness().max()),
                "p99 ≤ 5 s (at 1 M orders)");
        table.row(
                "upstream calls ÷ orders needing a pull, per ttl",
                ratio(r.callsPerOrder()) + " (worst ttl " + ratio(r.calls().worstWindow()) + ")",
                "≤ 1.05");
        table.row(
                "silent orders pulled",
                ReportFormat.count(r.pulledOrders()) + " of " + ReportFormat.count(o.orders()),
                "all");
        table.row(
                "last silent order first pulled",
                seconds(r.lastPulledMs()) + " (" + ReportFormat.count(r.laterCallsBeforeLastPulled())
                        + " repeat calls before it)",
                "≤ " + seconds(r.goalLastPulledMs()) + " (orders ÷ rate limit + 10 s)");
        table.row("peak puller backlog", ReportFormat.count(r.peakBacklog()), "—");
        table.row(
                "false expiries after pushes resume",
                ReportFormat.count(r.falseAfterResume()) + " of " + ReportFormat.count(r.expiriesAfterResume()),
                "0");
        table.row("SILENCE_STARTED after pushes stopped", event(r.silenceStartedMs()), "—");
        table.row("SILENCE_ENDED after pushes resumed", event(r.silenceEndedMs()), "—");
        out.append(table);
        out.append(String.format(
                Locale.ROOT,
                "%nExpiries/s: expiries fired during the silence by Kafka's append time; the first ttl counts from the"
                        + " storm's first expiry. Lateness: deadline to append time of the %,d attempt-1 expiries"
                        + " fired during the silence (a silent order's first, and each one after a pull re-armed it)."
                        + " Calls: time from the silence's start cut into ttl-long windows; each window's orders are"
                        + " those the puller called in it (%,d order-windows); the calls are the %,d that the"
                        + " simulated upstream served (the pulled topic holds %,d non-SKIPPED results), the worst"
                        + " window counted from the pulled topic. Last pull: from the fleet's first expiry (the first"
                        + " due at least a ttl less a push interval after the pushes stopped: an order that was pushing"
                        + " then) to the last silent order's first OK pull. False expiries: fired after the resume for"
                        + " an order that had pushed a ts in (deadline − ttl, deadline]. The pulled topic holds %,d SKIPPED results"
                        + " (no call needed; %,d of them because the order was pulled at or after the deadline)."
                        + " Events: their `at`. %s%n",
                r.lateness().count(),
                r.calls().orderWindows(),
                r.upstreamCalls(),
                r.calls().calls(),
                r.skipped(),
                r.skippedAlreadyPulled(),
                r.latenessParts().sentence()));
        out.append("\nBacklog and upstream calls, sampled each second: ")
                .append(plot)
                .append('\n');
        out.append(ReportFormat.totalRunTime(took));
        return out.toString();
    }

    private static String perSecond(double rate) {
        return String.format(Locale.ROOT, "%,.0f", rate);
    }

    private static String ratio(double ratio) {
        return String.format(Locale.ROOT, "%.3f", ratio);
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static String event(OptionalLong millis) {
        return millis.isPresent() ? seconds(millis.getAsLong()) : "none";
    }
}
