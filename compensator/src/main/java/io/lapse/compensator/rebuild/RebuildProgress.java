package io.lapse.compensator.rebuild;

import java.io.PrintStream;
import java.time.Clock;

/**
 * A rebuild's progress on a terminal: one line with a bar, how much of the changelog is read and the time left,
 * redrawn in place at most five times a second and erased when done, so that the summary follows on a clean line.
 */
public final class RebuildProgress implements FullRebuild.Listener {

    private static final long REDRAW_MS = 200;
    private static final int BAR = 30;

    private final PrintStream out;
    private final Clock clock;
    private long total;
    private long started;
    private long drawnAt;
    private int width;

    public RebuildProgress(PrintStream out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    @Override
    public void opened(long size) {
        total = size;
        started = clock.millis();
    }

    @Override
    public void advanced(long done) {
        long now = clock.millis();
        if (now - drawnAt >= REDRAW_MS) {
            drawnAt = now;
            String line = line(done, total, now - started);
            width = Math.max(width, line.length());
            out.print("\r" + line);
            out.flush();
        }
    }

    /** The progress line, e.g. {@code [#####-----]  50%  500,000/1,000,000 records  ETA 12 s}. */
    static String line(long done, long total, long elapsedMillis) {
        int filled = total <= 0 ? BAR : (int) Math.min(BAR, BAR * done / total);
        long percent = total <= 0 ? 100 : Math.min(100, 100 * done / total);
        StringBuilder line = new StringBuilder("[")
                .append("#".repeat(filled))
                .append("-".repeat(BAR - filled))
                .append(String.format("] %3d%%  %,d/%,d records", percent, done, total));
        if (done > 0 && done < total) {
            long left = elapsedMillis * (total - done) / done;
            line.append(String.format("  ETA %d s", Math.max(1, Math.round(left / 1000.0))));
        }
        return line.toString();
    }

    /** Erases the line, leaving the cursor where it began. */
    public void finish() {
        if (width > 0) {
            out.print("\r" + " ".repeat(width) + "\r");
            out.flush();
        }
    }
}
