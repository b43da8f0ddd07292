package io.lapse.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The one look of every benchmark's plots (XChart line charts, PNG), so that plots in the README read alike. */
public final class Plots {

    private static final int WIDTH = 960;
    private static final int HEIGHT = 540;

    private Plots() {}

    /** A line chart with no markers, the legend above the plot where no line can run through it. */
    public static XYChart lineChart(String title, String xAxis, String yAxis) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(xAxis)
                .yAxisTitle(yAxis)
                .build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setChartBackgroundColor(java.awt.Color.WHITE);
        styler.setPlotBorderVisible(false);
        chart.getStyler().setMarkerSize(0);
        return chart;
    }

    /** Adds a line series without markers. */
    public static void line(XYChart chart, String name, double[] x, double[] y) {
        chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
    }

    /** Writes the chart as a PNG, creating its folder. */
    public static void writePng(XYChart chart, Path png) throws IOException {
        Path parent = png.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        BitmapEncoder.saveBitmap(chart, png.toAbsolutePath().toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
