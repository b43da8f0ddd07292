package io.lapse.config;

import java.nio.file.Path;
import java.time.Duration;

/** How the compensator keeps and rescans its durable view of active orders. */
public record CompensatorSettings(String applicationId, Duration scanInterval, Path stateDir) {

    public CompensatorSettings {
        Require.nonEmpty(ConfigKeys.COMPENSATOR_APPLICATION_ID, applicationId);
        Require.positive(ConfigKeys.COMPENSATOR_SCAN_INTERVAL, scanInterval);
        Require.given(ConfigKeys.COMPENSATOR_STATE_DIR, stateDir);
    }

    public static CompensatorSettings from(ConfigSource source) {
        Path stateDir = source.isSet(ConfigKeys.COMPENSATOR_STATE_DIR)
                ? Path.of(source.string(ConfigKeys.COMPENSATOR_STATE_DIR))
                : Path.of(System.getProperty("java.io.tmpdir"), "lapse-streams");
        return source.build(() -> new CompensatorSettings(
                source.string(ConfigKeys.COMPENSATOR_APPLICATION_ID),
                source.duration(ConfigKeys.COMPENSATOR_SCAN_INTERVAL),
                stateDir));
    }
}
