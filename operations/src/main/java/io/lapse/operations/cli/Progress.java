package io.lapse.operations.cli;

import java.io.PrintWriter;
import java.time.Clock;

/**
 * One line of progress with a bar, the rate and the time left, redrawn in place at most five times a second and
 * erased when done, so that the command's summary line follows on a clean line.
 */
public final class Progress {

    /** Draws nothing: for output that goes to a file or a pipe. */
    public static final Progress NONE = new Progress(null, Clock.systemUTC(), "", 0);

    private static final long REDRAW_MS = 200;
    private static final int BAR = 24;

    private final PrintWriter out;
    private final Clock clock;
    private final String label;
    private final long total;
    private final long started;
    private long done;
    private long drawnAt;
    private int width;

    private Progress(PrintWriter out, Clock clock, String label, long total) {
        this.out = out;
        this.clock = clock;
        this.label = label;
        this.total = total;
        this.started = clock.millis();
    }

    static Progress drawn(PrintWriter out, Clock clock, String label, long total) {
        return new Progress(out, clock, label, total);
    }

    public void advance(long n) {
        done += n;
        long now = clock.millis();
        if (out != null && now - drawnAt >= REDRAW_MS) {
            drawnAt = now;
            draw(now);
        }
    }

    private void draw(long now) {
        double seconds = Math.max(now - started, 1) / 1000.0;
        double rate = done / seconds;
        StringBuilder line = new StringBuilder("\r").append(label);
        if (total > 0) {
            int filled = (int) Math.min(BAR, BAR * done / total);
            line.append(" [")
                    .append("#".repeat(filled))
                    .append("-".repeat(BAR - filled))
                    .append("] ")
                    .append(String.format("%3d%%  ", Math.min(100, 100 * done / total)))
                    .append(Show.count(done))
                    .append('/')
                    .append(Show.count(total));
        } else {
            line.append("  ").append(Show.count(done));
        }
        line.append("  ").append(Show.count(Math.round(rate))).append("/s");
        if (total > 0 && rate > 0 && done < total) {
            line.append("  ETA ").append(Show.duration(Math.round((total - done) / rate * 1000)));
        }
        width = Math.max(width, line.length());
        out.print(line);
        out.flush();
    }

    /** Erases the line, leaving the cursor where it began. */
    public void finish() {
        if (out != null && width > 0) {
            out.print("\r" + " ".repeat(width) + "\r");
            out.flush();
        }
    }
}
