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

    public FleetSettings {
        Require.positive(ConfigKeys.FLEET_WINDOW, window);
        Require.positive(ConfigKeys.FLEET_BASELINE, baseline);
        Require.that(
                ConfigKeys.FLEET_BASELINE,
                baseline.compareTo(window) >= 0,
                "must be at least " + ConfigKeys.FLEET_WINDOW.name() + " (" + Durations.format(window) + ")");
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

    /** How often the push topic's end offsets are read: often enough that a window holds several readings. */
    public Duration checkInterval() {
        return window.dividedBy(6);
    }
}
