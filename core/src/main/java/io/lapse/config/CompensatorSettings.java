package io.lapse.config;

import java.nio.file.Path;
import java.time.Duration;

/** How the compensator keeps and rescans its durable view of active orders. */
public record CompensatorSettings(String applicationId, Duration scanInterval, Path stateDir) {

    /** The mirror's store in Kafka Streams, which names its changelog. */
    public static final String MIRROR_STORE = "lapse-orders";
    /** The repartition step every input goes through on its way to the mirror, which names its topic. */
    public static final String MIRROR_REPARTITION = "lapse-order-updates";

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

    /** The internal topic Kafka Streams keeps the mirror's store in: what a rebuild reads. */
    public String changelog() {
        return changelogOf(applicationId);
    }

    /** The internal topic every input goes through to the mirror; its partition count is the mirror's. */
    public String repartitionTopic() {
        return repartitionTopicOf(applicationId);
    }

    public static String changelogOf(String applicationId) {
        return applicationId + "-" + MIRROR_STORE + "-changelog";
    }

    public static String repartitionTopicOf(String applicationId) {
        return applicationId + "-" + MIRROR_REPARTITION + "-repartition";
    }
}
