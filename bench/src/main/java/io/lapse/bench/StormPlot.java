package io.lapse.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;
import javax.imageio.ImageIO;

/**
 * The backlog and the drain over time, as a PNG drawn with the JDK's Java2D (a plotting library would need a
 * dependency in the poms, which this module does not own), and the samples as a CSV beside it for other tools.
 */
final class StormPlot {

    private static final int WIDTH = 960;
    private static final int HEIGHT = 540;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int TOP = 80;
    private static final int BOTTOM = 60;
    private static final Color BACKLOG = new Color(0xd6, 0x27, 0x28);
    private static final Color CALLS = new Color(0x1f, 0x77, 0xb4);
    private static final Color MARK = new Color(0x55, 0x55, 0x55);

    private StormPlot() {}

    /** Writes the PNG to {@code png} and the CSV beside it (same name, .csv); returns the CSV's path. */
    static Path write(StormResult result, Path png) throws IOException {
        Path parent = png.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        ImageIO.write(draw(result), "png", png.toFile());
        Path csv = parent.resolve(png.getFileName().toString().replaceFirst("\\.png$", "") + ".csv");
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

    static BufferedImage draw(StormResult result) {
        List<StormSampler.Sample> samples = result.samples();
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            long maxX = Math.max(
                    1_000,
                    samples.stream()
                            .mapToLong(StormSampler.Sample::atMillis)
                            .max()
                            .orElse(0));
            long maxY = Math.max(
                    1,
                    samples.stream()
                            .mapToLong(s -> Math.max(s.backlog(), s.calls()))
                            .max()
                            .orElse(0));
            Frame frame = new Frame(maxX, niceCeiling((maxY + 4) / 5) * 5);
            axes(g, frame);
            long silence = result.options().silence().toMillis();
            mark(g, frame, 0, "pushes stop");
            mark(g, frame, silence, "pushes resume");
            at(result.silenceStartedMs(), 0).ifPresent(x -> mark(g, frame, x, "SILENCE_STARTED"));
            at(result.silenceEndedMs(), silence).ifPresent(x -> mark(g, frame, x, "SILENCE_ENDED"));
            series(g, frame, samples, StormSampler.Sample::backlog, BACKLOG);
            series(g, frame, samples, StormSampler.Sample::calls, CALLS);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.setColor(Color.BLACK);
            g.drawString(
                    String.format(
                            Locale.ROOT,
                            "Expiry storm: %,d orders silent for %d s, upstream.rate-limit %,d/s, ttl %d s",
                            result.options().orders(),
                            result.options().silence().toSeconds(),
                            result.options().rateLimit(),
                            result.options().ttl().toSeconds()),
                    LEFT,
                    28);
            legend(g);
        } finally {
            g.dispose();
        }
        return image;
    }

    private static OptionalLong at(OptionalLong relative, long origin) {
        return relative.isPresent() ? OptionalLong.of(origin + relative.getAsLong()) : OptionalLong.empty();
    }

    /** Plot coordinates: x in ms since the silence began, y in expiries or calls. */
    private record Frame(long maxX, long maxY) {
        int x(long millis) {
            return LEFT + (int) Math.round((double) Math.max(0, millis) / maxX * (WIDTH - LEFT - RIGHT));
        }

        int y(long value) {
            return HEIGHT - BOTTOM - (int) Math.round((double) value / maxY * (HEIGHT - TOP - BOTTOM));
        }
    }

    private static void axes(Graphics2D g, Frame f) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(new Color(0xe0, 0xe0, 0xe0));
        long yStep = Math.max(1, f.maxY() / 5);
        long xStep = niceCeiling(Math.max(1, f.maxX() / 1000 / 10)) * 1000;
        for (long v = yStep; v <= f.maxY(); v += yStep) {
            g.drawLine(LEFT, f.y(v), WIDTH - RIGHT, f.y(v));
        }
        g.setColor(Color.BLACK);
        g.drawLine(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM);
        g.drawLine(LEFT, TOP, LEFT, HEIGHT - BOTTOM);
        for (long v = 0; v <= f.maxY(); v += yStep) {
            String label = String.format(Locale.ROOT, "%,d", v);
            g.drawString(label, LEFT - 8 - g.getFontMetrics().stringWidth(label), f.y(v) + 4);
        }
        for (long ms = 0; ms <= f.maxX(); ms += xStep) {
            String label = Long.toString(ms / 1000);
            g.drawLine(f.x(ms), HEIGHT - BOTTOM, f.x(ms), HEIGHT - BOTTOM + 4);
            g.drawString(label, f.x(ms) - g.getFontMetrics().stringWidth(label) / 2, HEIGHT - BOTTOM + 18);
        }
        g.drawString("seconds since the pushes stopped", WIDTH / 2 - 90, HEIGHT - 18);
    }

    private static void mark(Graphics2D g, Frame f, long millis, String label) {
        g.setColor(MARK);
        g.setStroke(new BasicStroke(1, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {5, 4}, 0));
        g.drawLine(f.x(millis), TOP, f.x(millis), HEIGHT - BOTTOM);
        g.setStroke(new BasicStroke(1));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        // labels of marks close together would overlap: the event labels sit lower than the push labels
        int y = label.startsWith("SILENCE") ? TOP + 28 : TOP + 12;
        g.drawString(label, f.x(millis) + 4, y);
    }

    private static void series(
            Graphics2D g,
            Frame f,
            List<StormSampler.Sample> samples,
            ToLongFunction<StormSampler.Sample> value,
            Color c) {
        List<StormSampler.Sample> drawn = new ArrayList<>();
        for (StormSampler.Sample s : samples) {
            if (s.atMillis() >= 0 && value.applyAsLong(s) >= 0) {
                drawn.add(s);
            }
        }
        if (drawn.isEmpty()) {
            return;
        }
        Path2D line = new Path2D.Double();
        line.moveTo(f.x(drawn.get(0).atMillis()), f.y(value.applyAsLong(drawn.get(0))));
        for (StormSampler.Sample s : drawn.subList(1, drawn.size())) {
            line.lineTo(f.x(s.atMillis()), f.y(value.applyAsLong(s)));
        }
        g.setColor(c);
        g.setStroke(new BasicStroke(2));
        g.draw(line);
        g.setStroke(new BasicStroke(1));
    }

    private static void legend(Graphics2D g) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        // above the plot, where no line or mark can run through it
        g.setColor(BACKLOG);
        g.fillRect(LEFT, 46, 14, 4);
        g.setColor(Color.BLACK);
        g.drawString("puller backlog (lapse.puller.backlog.all)", LEFT + 20, 52);
        g.setColor(CALLS);
        g.fillRect(LEFT + 320, 46, 14, 4);
        g.setColor(Color.BLACK);
        g.drawString("upstream calls since the pushes stopped (cumulative)", LEFT + 340, 52);
    }

    /** The smallest 1, 2 or 5 × 10^k at or above n, so that the axis ticks fall on round numbers. */
    static long niceCeiling(long n) {
        long power = 1;
        while (power * 10 <= n) {
            power *= 10;
        }
        for (long m : new long[] {1, 2, 5, 10}) {
            if (m * power >= n) {
                return m * power;
            }
        }
        return 10 * power;
    }
}
