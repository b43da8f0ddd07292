package io.lapse.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Everything one deployment owns on a Kafka cluster and a Redis it shares with others, named after it: its topics
 * ({@code NAME.push}, …), its consumer groups and Streams application ({@code NAME-ingest}, …) and its Redis key
 * prefix. Two deployments, or two test runs, with different namespaces never read or write each other's records or
 * keys. The settings are ordinary configuration keys: a deployment may set them one by one instead.
 */
public record Namespace(String name) {

    /** Characters Kafka allows in topic names, which the group names and the key prefix share. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    public Namespace {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "a namespace is 1 to 200 letters, digits, '.', '_' or '-' (a Kafka topic name allows no more): '"
                            + name + "'");
        }
    }

    public Map<ConfigKey, String> keys() {
        Map<ConfigKey, String> keys = new LinkedHashMap<>();
        keys.put(ConfigKeys.REDIS_KEY_PREFIX, name);
        keys.put(ConfigKeys.TOPIC_PUSH, name + ".push");
        keys.put(ConfigKeys.TOPIC_PULLED, name + ".pulled");
        keys.put(ConfigKeys.TOPIC_EXPIRED, name + ".expired");
        keys.put(ConfigKeys.TOPIC_DLQ, name + ".dlq");
        keys.put(ConfigKeys.TOPIC_TIMER_SHARDS, name + ".shards");
        keys.put(ConfigKeys.TOPIC_FLEET_EVENTS, name + ".fleet");
        keys.put(ConfigKeys.TOPIC_PARKED, name + ".parked");
        keys.put(ConfigKeys.INGEST_GROUP_ID, name + "-ingest");
        keys.put(ConfigKeys.TIMER_GROUP_ID, name + "-timer");
        keys.put(ConfigKeys.PULLER_GROUP_ID, name + "-puller");
        keys.put(ConfigKeys.COMPENSATOR_APPLICATION_ID, name + "-compensator");
        return Collections.unmodifiableMap(keys);
    }

    /** {@link #keys()} by their names, to hand to {@link LapseConfig#with}. */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        keys().forEach((key, value) -> settings.put(key.name(), value));
        return Collections.unmodifiableMap(settings);
    }
}
