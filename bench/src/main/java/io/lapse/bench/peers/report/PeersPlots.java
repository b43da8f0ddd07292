package io.lapse.bench.peers.report;

import io.lapse.bench.peers.run.PeerResult;
import io.lapse.bench.peers.run.SizeResult;
import io.lapse.bench.report.Plots;
import io.lapse.bench.report.ReportFormat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

/** The plots of a peers run: a lateness CDF per size, re-arms/s against size, CPU against size. */
public final class PeersPlots {

    private static final int CDF_POINTS = 200;
    /** A log axis has no 0: lateness of 0 ms is drawn here */
    private static final double LOG_FLOOR_MS = 0.5;

    private PeersPlots() {}

    /** Writes every plot into {@code dir}; returns their paths. */
    public static List<Path> write(List<SizeResult> sizes, Path dir) throws IOException {
        List<Path> written = new ArrayList<>();
        for (SizeResult size : sizes) {
            XYChart cdf = latenessCdf(size);
            if (!cdf.getSeriesMap().isEmpty()) {
                Path png = dir.resolve("peers-lateness-" + size.entities() + ".png");
                Plots.writePng(stacked(cdf), png);
                written.add(png);
            }
        }
        if (sizes.size() > 1) {
            written.add(write(rates(sizes), dir.resolve("peers-rearms.png")));
            written.add(write(cpu(sizes), dir.resolve("peers-cpu.png")));
        }
        return written;
    }

    private static Path write(XYChart chart, Path png) throws IOException {
        Plots.writePng(stacked(chart), png);
        return png;
    }

    /** A legend entry per line: the systems' names are too long to share a line of the legend. */
    private static XYChart stacked(XYChart chart) {
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        return chart;
    }

    private static XYChart latenessCdf(SizeResult size) {
        XYChart chart = Plots.lineChart(
                "Fire lateness of silent entities, " + ReportFormat.count(size.entities()) + " entities",
                "lateness, ms (log scale; 0 ms drawn at " + LOG_FLOOR_MS + ")",
                "share of silent entities fired, %");
        chart.getStyler().setXAxisLogarithmic(true);
        for (PeerResult run : size.peers()) {
            Histogram lateness = run.lateness();
            if (run.failure() != null || !run.keptUp() || lateness.getTotalCount() == 0) {
                continue;
            }
            double[] x = new double[CDF_POINTS + 1];
            double[] y = new double[CDF_POINTS + 1];
            // the share is of all silent entities: a system that missed some never reaches 100 %
            double reached = 100.0 * run.fired() / run.silent();
            for (int i = 0; i <= CDF_POINTS; i++) {
                double percentile = 100.0 * i / CDF_POINTS;
                x[i] = Math.max(LOG_FLOOR_MS, lateness.getValueAtPercentile(percentile));
                y[i] = percentile * reached / 100;
            }
            Plots.line(chart, run.system(), x, y);
        }
        return chart;
    }

    private static XYChart rates(List<SizeResult> sizes) {
        XYChart chart = Plots.lineChart("Re-arms/s sustained against entities", "entities", "re-arms/s");
        chart.getStyler().setXAxisLogarithmic(true);
        double[] x = sizes.stream().mapToDouble(SizeResult::entities).toArray();
        Plots.line(
                chart,
                "needed (N / R)",
                x,
                sizes.stream().mapToDouble(SizeResult::needed).toArray());
        for (String system : systems(sizes)) {
            List<double[]> points = new ArrayList<>();
            for (SizeResult size : sizes) {
                size.peers().stream()
                        .filter(p -> p.system().equals(system) && p.failure() == null)
                        .forEach(p -> points.add(new double[] {p.entities(), p.sustained()}));
            }
            addPoints(chart, system, points);
        }
        return chart;
    }

    private static XYChart cpu(List<SizeResult> sizes) {
        XYChart chart =
                Plots.lineChart("CPU per system (its redis-server + this JVM)", "entities", "cores busy over the run");
        chart.getStyler().setXAxisLogarithmic(true);
        for (String system : systems(sizes)) {
            List<double[]> points = new ArrayList<>();
            for (SizeResult size : sizes) {
                size.peers().stream()
                        .filter(p -> p.system().equals(system) && p.failure() == null)
                        .forEach(p -> points.add(new double[] {p.entities(), p.serverCpu() + p.jvmCpu()}));
            }
            addPoints(chart, system, points);
        }
        return chart;
    }

    private static void addPoints(XYChart chart, String system, List<double[]> points) {
        if (!points.isEmpty()) {
            Plots.line(
                    chart,
                    system,
                    points.stream().mapToDouble(p -> p[0]).toArray(),
                    points.stream().mapToDouble(p -> p[1]).toArray());
        }
    }

    private static Set<String> systems(List<SizeResult> sizes) {
        Set<String> names = new LinkedHashSet<>();
        sizes.forEach(s -> s.peers().forEach(p -> names.add(p.system())));
        return names;
    }
}
