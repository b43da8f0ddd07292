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
 * @param baselineFold    the plain application, from start until its offsets reached the end
 * @param compensatorFold the compensator, likewise
 */
record FoldRatio(Fold baselineFold, Fold compensatorFold) {

    static final double GOAL = 0.5;

    FoldRatio {
        Objects.requireNonNull(baselineFold, "baseline");
        Objects.requireNonNull(compensatorFold, "compensator");
        Rate baseline = baselineFold.rate();
        Rate compensator = compensatorFold.rate();
        if (baseline.records() != compensator.records()) {
            throw new IllegalArgumentException("the baseline folded " + baseline.records()
                    + " records and the compensator " + compensator.records() + ": not the same backlog");
        }
        if (baseline.nanos() <= 0 || compensator.nanos() <= 0) {
            throw new IllegalArgumentException("a run took no time");
        }
    }

    double ratio() {
        return compensatorFold.rate().perSecond() / baselineFold.rate().perSecond();
    }

    boolean met() {
        return ratio() >= GOAL;
    }

    String markdown() {
        Rate baseline = baselineFold.rate();
        Rate compensator = compensatorFold.rate();
        return new MarkdownTable(
                        "application",
                        "records",
                        "seconds",
                        "records/s",
                        "CPU µs/record",
                        "compensator ÷ baseline",
                        "goal")
                .row(
                        "baseline: plain Kafka Streams, bytes kept per orderId",
                        BenchReport.count(baseline.records()),
                        seconds(baseline),
                        BenchReport.count(Math.round(baseline.perSecond())),
                        micros(baselineFold),
                        "—",
                        "")
                .row(
                        "Lapse compensator: push folder (decode, coalesce per order), mirror",
                        BenchReport.count(compensator.records()),
                        seconds(compensator),
                        BenchReport.count(Math.round(compensator.perSecond())),
                        micros(compensatorFold),
                        String.format(Locale.ROOT, "%.2f", ratio()),
                        String.format(Locale.ROOT, "≥ %.1f%s", GOAL, met() ? "" : " (not met)"))
                .toString();
    }

    private static String micros(Fold fold) {
        return String.format(Locale.ROOT, "%.1f", fold.cpuMicrosPerRecord());
    }

    private static String seconds(Rate rate) {
        return String.format(Locale.ROOT, "%.1f", rate.seconds());
    }
}
