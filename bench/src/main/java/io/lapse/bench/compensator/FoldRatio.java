package io.lapse.bench.compensator;

import io.lapse.bench.report.BenchReport;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.bench.report.Rate;
import java.util.Locale;
import java.util.Objects;

/**
 * The compensator's throughput against the plain Kafka Streams application's on the same records in the same run:
 * only the ratio carries from one machine to another.
 *
 * @param baseline    the plain application, from start until its offsets reached the end
 * @param compensator the compensator, likewise
 */
record FoldRatio(Rate baseline, Rate compensator) {

    static final double GOAL = 0.5;

    FoldRatio {
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(compensator, "compensator");
        if (baseline.records() != compensator.records()) {
            throw new IllegalArgumentException("the baseline folded " + baseline.records()
                    + " records and the compensator " + compensator.records() + ": not the same backlog");
        }
        if (baseline.nanos() <= 0 || compensator.nanos() <= 0) {
            throw new IllegalArgumentException("a run took no time");
        }
    }

    double ratio() {
        return compensator.perSecond() / baseline.perSecond();
    }

    boolean met() {
        return ratio() >= GOAL;
    }

    String markdown() {
        return new MarkdownTable("application", "records", "seconds", "records/s", "compensator ÷ baseline", "goal")
                .row(
                        "baseline: plain Kafka Streams, bytes kept per orderId",
                        BenchReport.count(baseline.records()),
                        seconds(baseline),
                        BenchReport.count(Math.round(baseline.perSecond())),
                        "—",
                        "")
                .row(
                        "Lapse compensator: decode, repartition, mirror",
                        BenchReport.count(compensator.records()),
                        seconds(compensator),
                        BenchReport.count(Math.round(compensator.perSecond())),
                        String.format(Locale.ROOT, "%.2f", ratio()),
                        String.format(Locale.ROOT, "≥ %.1f%s", GOAL, met() ? "" : " (not met)"))
                .toString();
    }

    private static String seconds(Rate rate) {
        return String.format(Locale.ROOT, "%.1f", rate.seconds());
    }
}
