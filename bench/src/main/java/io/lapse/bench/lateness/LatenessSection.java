package io.lapse.bench.lateness;

import static io.lapse.bench.report.ReportFormat.count;
import static io.lapse.bench.report.ReportFormat.millis;

import io.lapse.bench.report.MarkdownTable;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/** The fire-lateness part of the report: one row per mode and size, and notes where a run was not what it seems. */
public final class LatenessSection {

    private static final String[] HEADER = {
        "mode",
        "timers",
        "pushes/s (target)",
        "gen. behind max",
        "fired / expected",
        "missing",
        "late > 1 s",
        "false",
        "lateness p50",
        "p99",
        "max",
        "claimed p50 / p99",
        "bytes/order",
        "ingest lag end / max",
        "watermark age max",
        "GC"
    };

    private LatenessSection() {}

    public static String markdown(LatenessLoad load, List<LatenessResult> runs) {
        MarkdownTable table = new MarkdownTable(HEADER);
        StringBuilder notes = new StringBuilder();
        for (LatenessResult r : runs) {
            table.row(r.failure() != null ? failedRow(r) : row(r));
            notes.append(notes(r, load.ttl().minus(load.cadence())));
        }
        return "## Fire lateness and memory (goals for zset at 1 M: p50 ≤ 10 ms, p99 ≤ 50 ms; ≤ 150 bytes/order)\n\n"
                + table + '\n'
                + "Lateness = Kafka's append time of the TimerExpired (LogAppendTime) − (ts of the silent order's last"
                + " push + ttl), over the first expiries of silent orders. Claimed: the part until the timer claimed"
                + " the expiry in Redis (its firedAt); the rest is the publish. Missing: no expiry within "
                + millis(LatenessRun.ZSET_GRACE_MS) + " (zset) or " + millis(LatenessRun.TTL_GRACE_MS) + " (ttl) of"
                + " the deadline. False: expiries of orders that kept pushing, or counted from an earlier push."
                + " bytes/order: growth of Redis used_memory over the warm-up, per armed timer. Ingest lag (records"
                + " of the push topic not yet committed), watermark age (both sampled each second) and GC (pauses of"
                + " this JVM, which also runs the broker and the load) count from the end of the warm-up.\n"
                + (notes.isEmpty() ? "" : "\n" + notes);
    }

    private static String[] row(LatenessResult r) {
        LatenessTally.Figures f = r.figures();
        Histogram lateness = f.lateness();
        boolean fired = f.fired() > 0;
        return new String[] {
            r.mode(),
            count(r.timers()),
            count(Math.round(r.generator().pushesPerSecond())) + " (" + count(Math.round(r.targetRate())) + ")",
            millis(r.generator().behindMaxMillis()),
            count(f.fired()) + " / " + count(f.expected()),
            count(f.missing()),
            count(f.lateOverSecond()),
            count(f.falseExpiries()),
            fired ? millis(lateness.getValueAtPercentile(50)) : "—",
            fired ? millis(lateness.getValueAtPercentile(99)) : "—",
            fired ? millis(lateness.getMaxValue()) : "—",
            fired
                    ? millis(f.claimDelay().getValueAtPercentile(50)) + " / "
                            + millis(f.claimDelay().getValueAtPercentile(99))
                    : "—",
            count(r.bytesPerOrder()),
            count(r.lagEnd()) + " / " + count(r.lagMax()),
            millis(r.watermarkAgeMaxMillis()),
            millis(r.gcMillis())
        };
    }

    private static String[] failedRow(LatenessResult r) {
        String[] cells = new String[HEADER.length];
        Arrays.fill(cells, "—");
        cells[0] = r.mode();
        cells[1] = count(r.timers());
        cells[4] = "failed";
        return cells;
    }

    /** @param slack how far the generator may fall behind before orders that keep pushing are silent for a ttl */
    private static String notes(LatenessResult r, Duration slack) {
        String run = "- " + r.mode() + " " + count(r.timers());
        if (r.failure() != null) {
            return run + " failed: " + r.failure() + "\n";
        }
        StringBuilder notes = new StringBuilder();
        if (r.armedAtWarmup() < r.timers()) {
            notes.append(run)
                    .append(": only ")
                    .append(count(r.armedAtWarmup()))
                    .append(" timers armed at the end of the warm-up; bytes/order divides by that\n");
        }
        if (r.generator().failed() > 0) {
            notes.append(run)
                    .append(": ")
                    .append(count(r.generator().failed()))
                    .append(" pushes were not acknowledged by Kafka\n");
        }
        if (r.generator().behindMaxMillis() > slack.toMillis()) {
            notes.append(run)
                    .append(": the generator fell more than ttl − cadence behind, so some orders meant to"
                            + " keep pushing were silent for a whole ttl\n");
        }
        return notes.toString();
    }
}
