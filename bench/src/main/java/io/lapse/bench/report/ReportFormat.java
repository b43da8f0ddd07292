package io.lapse.bench.report;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * How every benchmark's report writes its figures: counts, milliseconds, the median of turns, and the total run time as
 * its last line.
 */
public final class ReportFormat {

    private ReportFormat() {}

    /** Every report's last line. */
    public static String totalRunTime(Duration took) {
        return "\nTotal run time: " + took.toMinutes() + " min " + took.toSecondsPart() + " s\n";
    }

    /** The median of some turns' figures. */
    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1
                ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    public static String millis(long ms) {
        return ms < 1_000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
