package io.lapse.bench.storm;

import io.lapse.bench.report.Plots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;

/**
 * The backlog and the drain over time, as a PNG drawn with XChart ({@link Plots}), and the samples as a CSV beside it
 * for other tools.
 */
public final class StormPlot {

    private StormPlot() {}

    /** Writes the PNG to {@code png} and the CSV beside it (same name, .csv); returns the CSV's path. */
    public static Path write(StormResult result, Path png) throws IOException {
        Plots.writePng(chart(result), png);
        Path csv = png.toAbsolutePath()
                .getParent()
                .resolve(png.getFileName().toString().replaceFirst("\\.png$", "") + ".csv");
        Files.writeString(csv, csv(result.samples()));
        return csv;
    }

    static String csv(List<StormSampler.Sample> samples) {
        StringBuilder out = new StringBuilder("seconds_since_silence,backlog,upstream_calls\n");
        for (StormSampler.Sample s : samples) {
            out.append(String.format(Locale.ROOT, "%.3f,%d,%d%n", s.atMillis() / 1000.0, s.backlog(), s.calls()));
        }
        return out.toString();
    }

    static XYChart chart(StormResult result) {
        XYChart chart = Plots.lineChart(
                String.format(
                        Locale.ROOT,
                        "Expiry storm: %,d orders silent for %d s, upstream.rate-limit %,d/s, ttl %d s",
                        result.options().orders(),
                        result.options().silence().toSeconds(),
                        result.options().rateLimit(),
                        result.options().ttl().toSeconds()),
                "seconds since the pushes stopped",
                "expiries / calls");
        series(chart, "puller backlog (lapse.puller.backlog.all)", result.samples(), StormSampler.Sample::backlog);
        series(
                chart,
                "upstream calls since the pushes stopped (cumulative)",
                result.samples(),
                StormSampler.Sample::calls);
        long top = Math.max(
                1,
                result.samples().stream()
                        .mapToLong(s -> Math.max(s.backlog(), s.calls()))
                        .max()
                        .orElse(0));
        long silence = result.options().silence().toMillis();
        mark(chart, 0, "pushes stop", top * 0.97);
        mark(chart, silence, "pushes resume", top * 0.97);
        at(result.silenceStartedMs(), 0).ifPresent(x -> mark(chart, x, "SILENCE_STARTED", top * 0.90));
        at(result.silenceEndedMs(), silence).ifPresent(x -> mark(chart, x, "SILENCE_ENDED", top * 0.90));
        return chart;
    }

    private static void series(
            XYChart chart, String name, List<StormSampler.Sample> samples, ToLongFunction<StormSampler.Sample> value) {
        List<StormSampler.Sample> drawn = samples.stream()
                .filter(s -> s.atMillis() >= 0 && value.applyAsLong(s) >= 0)
                .toList();
        if (drawn.isEmpty()) {
            return;
        }
        Plots.line(
                chart,
                name,
                drawn.stream().mapToDouble(s -> s.atMillis() / 1000.0).toArray(),
                drawn.stream().mapToDouble(value::applyAsLong).toArray());
    }

    private static OptionalLong at(OptionalLong relative, long origin) {
        return relative.isPresent() ? OptionalLong.of(origin + relative.getAsLong()) : OptionalLong.empty();
    }

    /** A vertical line with its label near the top; event labels sit lower than push labels so none overlap. */
    private static void mark(XYChart chart, long millis, String label, double labelHeight) {
        chart.addAnnotation(new AnnotationLine(millis / 1000.0, true, false));
        chart.addAnnotation(new AnnotationText(label, millis / 1000.0, labelHeight, false));
    }
}
