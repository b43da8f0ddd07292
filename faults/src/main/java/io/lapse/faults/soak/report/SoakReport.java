package io.lapse.faults.soak.report;

import io.lapse.bench.lateness.Lateness;
import io.lapse.bench.report.MarkdownTable;
import io.lapse.bench.report.Plots;
import io.lapse.faults.soak.sample.Sampler;
import io.lapse.faults.soak.sample.SoakSample;
import io.lapse.faults.soak.settings.SoakOptions;
import io.lapse.lifecycle.ServiceName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.knowm.xchart.XYChart;

/** How a soak's samples read: a line every 30 s, the summary tables, the CSV and the plots. */
public final class SoakReport {

    /** The services' processes, by command, in pipeline order. */
    static final List<String> SERVICES =
            ServiceName.ALL.stream().map(ServiceName::command).toList();

    private static final List<String> PROCESSES = Stream.concat(
                    SERVICES.stream(), Stream.of("broker", "redis", "load", "judge"))
            .toList();

    private SoakReport() {}

    public static String progressLine(SoakSample s) {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%5.0f s  pushes %s/s of %s (behind %.1f s)  lag",
                s.at(),
                compact(s.get("pushes.rate")),
                compact(s.get("pushes.target")),
                s.get("load.behind.seconds")));
        for (String group : Sampler.GROUPS) {
            line.append(String.format(
                    Locale.ROOT,
                    " %s %s/%.1f s",
                    group,
                    compact(s.get("lag." + group + ".records")),
                    s.get("lag." + group + ".seconds")));
        }
        line.append(String.format(
                Locale.ROOT,
                "  watermark %.1f s  silent %.0f fired %.0f missed %.0f false %.0f  late p99 %s  cpu",
                s.get("watermark.age.seconds"),
                s.get("silent"),
                s.get("fired"),
                s.get("missed"),
                s.get("false"),
                Double.isNaN(s.get("late.p99.seconds"))
                        ? "-"
                        : String.format(Locale.ROOT, "%.1f s", s.get("late.p99.seconds"))));
        for (String process : PROCESSES) {
            line.append(String.format(Locale.ROOT, " %s %.2f", process, s.get("cpu." + process)));
        }
        return line.toString();
    }

    /** The summary of one run, as Markdown. */
    public static String summary(SoakOptions options, String name, List<SoakSample> samples, long[] lateness) {
        SoakSample last = samples.get(samples.size() - 1);
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "### Soak %s: %,d orders pushing every %ds, ttl %ds, %.1f %% silent, %.0f s%s%n%n",
                name,
                options.orders(),
                options.pushInterval().toSeconds(),
                options.ttl().toSeconds(),
                options.silent() * 100,
                last.at(),
                options.fault() == null ? "" : ", fault " + options.fault().label));
        MarkdownTable lags = new MarkdownTable(
                "consumer group", "lag (records, end)", "lag (s, end)", "lag (s, max)", "slope (s/min)", "grows");
        for (String group : Sampler.GROUPS) {
            Growth growth = Growth.of(samples, Sampler.judgedLag(group));
            lags.row(
                    group,
                    compact(last.get("lag." + group + ".records")),
                    seconds(last.get("lag." + group + ".seconds")),
                    seconds(max(samples, s -> s.get("lag." + group + ".seconds"))),
                    String.format(Locale.ROOT, "%+.2f", growth.secondsPerMinute()),
                    growth.grows() ? "**yes**" : "no");
        }
        out.append(lags)
                .append('\n')
                .append("(")
                .append(Growth.DEFINITION)
                .append("; the compensator's push folder commits once a round, every compensator.scan-interval, so its"
                        + " lag is a sawtooth that high, judged by its least over each round; the mirror is the"
                        + " compensator's streams, folding what the folder hands over, the pull results and the"
                        + " expiries)\n\n");
        Lateness late = Lateness.of(lateness);
        MarkdownTable outcomes = new MarkdownTable("outcome", "value");
        outcomes.row(
                        "watermark age (s, end / max)",
                        seconds(last.get("watermark.age.seconds")) + " / "
                                + seconds(max(samples, s -> s.get("watermark.age.seconds"))))
                .row(
                        "silent orders (fired / missed / not yet due)",
                        String.format(
                                Locale.ROOT,
                                "%.0f (%.0f / %.0f / %.0f)",
                                last.get("silent"),
                                last.get("fired"),
                                last.get("missed"),
                                last.get("pending")))
                .row(
                        "fire lateness of silent orders p50 / p99 / max (s)",
                        late.count() == 0
                                ? "no expiry"
                                : String.format(
                                        Locale.ROOT,
                                        "%.2f / %.2f / %.2f (%d expiries)",
                                        late.p50() / 1000.0,
                                        late.p99() / 1000.0,
                                        late.max() / 1000.0,
                                        late.count()))
                .row(
                        "false expiries (pushed again within the ttl before the deadline)",
                        String.format(Locale.ROOT, "%.0f", last.get("false")))
                .row("expiries of finished orders", String.format(Locale.ROOT, "%.0f", last.get("revived")))
                .row("expiries in all", compact(last.get("expiries")))
                .row(
                        "pushes/s achieved / target (mean)",
                        compact(mean(samples, s -> s.get("pushes.rate"))) + " / "
                                + compact(mean(samples, s -> s.get("pushes.target"))))
                .row("generator behind schedule (s, max)", seconds(max(samples, s -> s.get("load.behind.seconds"))))
                .row("pushes failed", compact(last.get("pushes.failed")))
                .row(
                        "orders finished and replaced / pushes missed on purpose (--churn)",
                        compact(last.get("finished.orders")) + " / " + compact(last.get("missed.pushes")))
                .row("Redis used_memory per order (bytes)", perOrder(last.get("redis.used_memory"), options))
                .row(
                        "compensator state store per order (bytes)",
                        perOrder(last.get("compensator.state.bytes"), options))
                .row(
                        "compensator changelog per order (bytes)",
                        perOrder(last.get("compensator.changelog.bytes"), options));
        out.append(outcomes).append('\n');
        MarkdownTable processes = new MarkdownTable(
                "process", "CPU (cores, mean)", "CPU (cores, max)", "RSS (MB, max)", "GC pauses (s per minute)");
        for (String process : PROCESSES) {
            boolean service = SERVICES.contains(process);
            processes.row(
                    process,
                    String.format(Locale.ROOT, "%.2f", mean(samples, s -> s.get("cpu." + process))),
                    String.format(Locale.ROOT, "%.2f", max(samples, s -> s.get("cpu." + process))),
                    String.format(Locale.ROOT, "%.0f", max(samples, s -> s.get("rss.mb." + process))),
                    service ? gcPerMinute(samples, process) : "");
        }
        out.append(processes)
                .append("\n#### What it cost per 1 M watched orders\n\n")
                .append(CostTable.markdown(samples, options.orders()));
        return out.toString();
    }

    /** Writes samples.csv and the three plots into the run's folder. */
    public static void write(Path dir, List<SoakSample> samples) throws IOException {
        List<String> columns = new ArrayList<>(samples.get(0).figures().keySet());
        StringBuilder csv = new StringBuilder("at_seconds,")
                .append(String.join(",", columns))
                .append('\n');
        for (SoakSample sample : samples) {
            csv.append(String.format(Locale.ROOT, "%.1f", sample.at()));
            for (String column : columns) {
                csv.append(',').append(csvNumber(sample.get(column)));
            }
            csv.append('\n');
        }
        Files.writeString(dir.resolve("samples.csv"), csv);
        XYChart lag = Plots.lineChart("Consumer lag", "seconds since the load started", "lag (s)");
        for (String group : Sampler.GROUPS) {
            series(lag, group, samples, "lag." + group + ".seconds");
        }
        Plots.writePng(lag, dir.resolve("lag.png"));
        XYChart late =
                Plots.lineChart("Fire lateness of silent orders", "seconds since the load started", "lateness (s)");
        for (String p : List.of("p50", "p99", "max")) {
            series(late, p, samples, "late." + p + ".seconds");
        }
        Plots.writePng(late, dir.resolve("lateness.png"));
        XYChart cpu = Plots.lineChart("CPU per process", "seconds since the load started", "cores");
        for (String process : PROCESSES) {
            series(cpu, process, samples, "cpu." + process);
        }
        Plots.writePng(cpu, dir.resolve("cpu.png"));
    }

    /** A series of the samples where the column has a figure; a placeholder point at 0 when none has. */
    private static void series(XYChart chart, String name, List<SoakSample> samples, String column) {
        List<SoakSample> known =
                samples.stream().filter(s -> !Double.isNaN(s.get(column))).collect(Collectors.toList());
        double[] x = known.isEmpty()
                ? new double[] {0}
                : known.stream().mapToDouble(SoakSample::at).toArray();
        double[] y = known.isEmpty()
                ? new double[] {0}
                : known.stream().mapToDouble(s -> s.get(column)).toArray();
        Plots.line(chart, known.isEmpty() ? name + " (none)" : name, x, y);
    }

    private static String gcPerMinute(List<SoakSample> samples, String service) {
        double first = Double.NaN;
        double firstAt = 0;
        double last = Double.NaN;
        double lastAt = 0;
        for (SoakSample s : samples) {
            double gc = s.get("gc.seconds." + service);
            if (!Double.isNaN(gc)) {
                if (Double.isNaN(first)) {
                    first = gc;
                    firstAt = s.at();
                }
                last = gc;
                lastAt = s.at();
            }
        }
        return Double.isNaN(first) || lastAt <= firstAt
                ? "-"
                : String.format(Locale.ROOT, "%.3f", (last - first) / ((lastAt - firstAt) / 60));
    }

    static double max(List<SoakSample> samples, ToDoubleFunction<SoakSample> figure) {
        return samples.stream()
                .mapToDouble(figure)
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(Double.NaN);
    }

    static double mean(List<SoakSample> samples, ToDoubleFunction<SoakSample> figure) {
        return samples.stream()
                .mapToDouble(figure)
                .filter(v -> !Double.isNaN(v))
                .average()
                .orElse(Double.NaN);
    }

    private static String perOrder(double bytes, SoakOptions options) {
        return Double.isNaN(bytes) ? "-" : String.format(Locale.ROOT, "%.0f", bytes / options.orders());
    }

    private static String seconds(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.1f", s);
    }

    private static String csvNumber(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }

    static String compact(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (Math.abs(v) >= 1_000_000) {
            return String.format(Locale.ROOT, "%.2fM", v / 1_000_000);
        }
        if (Math.abs(v) >= 10_000) {
            return String.format(Locale.ROOT, "%.1fk", v / 1000);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
