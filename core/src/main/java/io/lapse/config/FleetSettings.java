package io.lapse.config;

import java.time.Duration;

/**
 * When ingest calls the push topic silent: a partition whose push rate over {@code window} fell by
 * {@code silentPercent} of its rate over the {@code baseline} before, while that baseline was at least
 * {@code minPushesPerSecond}; and when it calls a cohort of orders silent ({@code cohorts}), over the same window and
 * baseline.
 */
public record FleetSettings(
        Duration window, Duration baseline, int silentPercent, int minPushesPerSecond, CohortSettings cohorts) {

    /** The longest one check of the push topic waits for the broker or Redis before it fails. */
    public static final Duration CHECK_TIMEOUT = Duration.ofSeconds(10);

    public FleetSettings {
        Require.positive(ConfigKeys.FLEET_WINDOW, window);
        Require.positive(ConfigKeys.FLEET_BASELINE, baseline);
        Require.that(
                ConfigKeys.FLEET_BASELINE,
                baseline.compareTo(leastBaseline(window)) >= 0,
                "must be at least 2.5 × " + ConfigKeys.FLEET_WINDOW.name() + " + 10s ("
                        + Durations.format(leastBaseline(window))
                        + "), so that an ingest instance that takes over judging while a silence begins still"
                        + " measures pushes from before it");
        Require.between(ConfigKeys.FLEET_SILENT_PERCENT, silentPercent, 1, 100);
        Require.between(ConfigKeys.FLEET_MIN_PUSHES_PER_SECOND, minPushesPerSecond, 1, 1_000_000);
        Require.given(ConfigKeys.FLEET_COHORT_FIELD, cohorts);
    }

    public static FleetSettings from(ConfigSource source) {
        return source.build(() -> new FleetSettings(
                source.duration(ConfigKeys.FLEET_WINDOW),
                source.duration(ConfigKeys.FLEET_BASELINE),
                source.integer(ConfigKeys.FLEET_SILENT_PERCENT),
                source.integer(ConfigKeys.FLEET_MIN_PUSHES_PER_SECOND),
                CohortSettings.from(source)));
    }

    /**
     * The shortest baseline for this window: an instance that takes over judging (the judge died or froze just before
     * it announced a silence) decides up to 1.5 windows, a lease and two checks after the silence began, with the
     * rates of its own readings; its baseline span, which ends a window before that, must still reach a window or
     * more into the time before the silence, or it measures no pushes there and the silence is never told.
     */
    public static Duration leastBaseline(Duration window) {
        return window.multipliedBy(2).plus(judgeLease(window));
    }

    /** How often the push topic's end offsets are read: often enough that a window holds several readings. */
    public Duration checkInterval() {
        return checkInterval(window);
    }

    /**
     * How long the ingest instance that judges holds its lease after each check: long enough to outlast a slow check
     * (three check intervals and {@link #CHECK_TIMEOUT}), short enough that another takes over within seconds.
     */
    public Duration judgeLease() {
        return judgeLease(window);
    }

    private static Duration checkInterval(Duration window) {
        return window.dividedBy(6);
    }

    private static Duration judgeLease(Duration window) {
        // three check intervals, counted from the window so that a sixth's rounding does not shorten the lease
        return window.dividedBy(2).plus(CHECK_TIMEOUT);
    }
}
