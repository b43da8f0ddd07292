package io.lapse.config;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The settings of one test run on a shared broker and Redis: a {@link Namespace} of its own (topics, consumer groups,
 * Streams application, Redis keys) numbered within this JVM, three partitions per topic and an ephemeral management
 * port; the test's own settings go on top. Every rig that starts services for a test builds its configuration here.
 */
public final class TestRun {

    private static final AtomicInteger RUNS = new AtomicInteger();

    private TestRun() {}

    /** A namespace no other run of this JVM has: {@code what-N}. */
    public static Namespace namespace(String what) {
        return new Namespace(what + "-" + RUNS.incrementAndGet());
    }

    /**
     * @param bootstrapServers the devstack's broker
     * @param redisUri         the devstack's Redis
     * @param overrides        the test's own settings, over these
     */
    public static Map<String, String> settings(
            Namespace namespace, String bootstrapServers, String redisUri, Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(namespace.settings());
        settings.put(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.name(), bootstrapServers);
        settings.put(ConfigKeys.REDIS_URI.name(), redisUri);
        settings.put(ConfigKeys.TOPICS_PARTITIONS.name(), "3");
        settings.put(ConfigKeys.MANAGEMENT_PORT.name(), "0");
        settings.putAll(overrides);
        return Map.copyOf(settings);
    }

    /** The defaults with {@code settings} on top. */
    public static LapseConfig config(Map<String, String> settings) {
        return LapseConfig.load(null, Map.of()).with(settings);
    }
}
