package io.lapse.faults.soak.report;

import io.lapse.faults.soak.sample.SoakSample;
import java.util.List;

/**
 * Whether a lag grows: the least-squares line through its seconds over the last five minutes of the run (over its last
 * two thirds when the run is shorter, leaving out the start, where every lag rises from 0) rises faster than 1 % of
 * the clock (the group handles less than 99 % of what arrives) and by more than 2 s over that window.
 *
 * @param secondsPerMinute the line's slope
 * @param rise             what the line rises over the window, in seconds
 */
public record Growth(double secondsPerMinute, double rise) {

    public static final String DEFINITION =
            "a lag grows when the least-squares line through its seconds over the last 5"
                    + " minutes (the last two thirds of a shorter run) rises faster than 0.6 s per minute (1 % of the clock)"
                    + " and by more than 2 s over that window";
    private static final double WINDOW_SECONDS = 300;
    private static final double GROWING_SLOPE = 0.01;
    private static final double GROWING_RISE = 2;

    public boolean grows() {
        return secondsPerMinute / 60 > GROWING_SLOPE && rise > GROWING_RISE;
    }

    /** The samples a run is judged over: its last five minutes, or its last two thirds when it is shorter. */
    static List<SoakSample> window(List<SoakSample> samples) {
        if (samples.isEmpty()) {
            return samples;
        }
        double end = samples.get(samples.size() - 1).at();
        double from = end > WINDOW_SECONDS * 1.5 ? end - WINDOW_SECONDS : end / 3;
        return samples.stream().filter(sample -> sample.at() >= from).toList();
    }

    /** @param column e.g. lag.ingest.seconds; samples where it is NaN are left out */
    public static Growth of(List<SoakSample> samples, String column) {
        double n = 0;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        double first = Double.NaN;
        double last = Double.NaN;
        for (SoakSample sample : window(samples)) {
            double y = sample.get(column);
            if (Double.isNaN(y)) {
                continue;
            }
            double x = sample.at();
            first = Double.isNaN(first) ? x : first;
            last = x;
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        double denominator = n * sxx - sx * sx;
        if (n < 3 || denominator == 0) {
            return new Growth(0, 0);
        }
        double slope = (n * sxy - sx * sy) / denominator;
        return new Growth(slope * 60, slope * (last - first));
    }
}
