package io.lapse.ingest.fleet;

import io.lapse.config.FleetSettings;

/**
 * When a stream of pushes (a push partition, or any other share of the fleet that is counted the same way) is silent,
 * and when a silent one speaks again, from its push rates: over the last window, over the baseline before it (frozen
 * when its silence began), and the lowest it was during the silence.
 *
 * <p>A stream falls silent when its rate fell by {@code fleet.silent-percent} of a baseline busy enough to judge. It
 * speaks again when its rate is back above that threshold, or when it rose from the quietest it was during the
 * silence by as much as a fall must be to count as one (twice its quietest, at 50 %), at least
 * {@code fleet.min-pushes-per-second} and a hundredth of its baseline: a fleet that comes back smaller than before
 * (sessions ended during the silence, the night) speaks again all the same, and a silence ends when its producers
 * write again.
 *
 * @param keptShare          the share of its baseline a silent stream's rate is at most, 1 − silent-percent / 100
 * @param minPushesPerSecond the least baseline judged, and the least rate a silent stream speaks again with
 */
public record SilenceRule(double keptShare, double minPushesPerSecond) {

    /**
     * A fleet that comes back smaller than it was speaks again with at least this share of its baseline: a trickle
     * after a total silence (a few chargers retrying) does not end it.
     */
    static final double LEAST_SHARE_BACK = 0.01;

    public SilenceRule {
        if (keptShare < 0 || keptShare >= 1 || minPushesPerSecond <= 0) {
            throw new IllegalArgumentException("a kept share in [0, 1) and a positive least rate, not " + keptShare
                    + " and " + minPushesPerSecond);
        }
    }

    public static SilenceRule of(FleetSettings settings) {
        return new SilenceRule(1 - settings.silentPercent() / 100.0, settings.minPushesPerSecond());
    }

    /** Whether a stream with this baseline is busy enough to be judged at all. */
    public boolean judges(double baseline) {
        return baseline >= minPushesPerSecond;
    }

    /** Whether a stream that was speaking is silent now. */
    public boolean fellSilent(double now, double baseline) {
        return judges(baseline) && now <= baseline * keptShare;
    }

    /**
     * Whether a silent stream speaks again.
     *
     * @param baseline its baseline from before the silence
     * @param quietest the lowest rate it had during the silence, this one included
     */
    public boolean speaksAgain(double now, double baseline, double quietest) {
        return now > baseline * keptShare
                || (now >= Math.max(minPushesPerSecond, baseline * LEAST_SHARE_BACK) && now * keptShare >= quietest);
    }
}
