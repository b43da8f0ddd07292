package io.lapse.config;

import java.util.Map;
import java.util.Objects;

/**
 * How to reach Kafka and which topics to use.
 *
 * @param clientProperties passed to every Kafka client (bootstrap.servers and any kafka.* key)
 * @param replicationFactor of created topics, or -1 for the broker's default
 * @param instanceId        this process's static-membership id in its consumer groups, or empty to take one from
 *                          the host name (see {@code io.lapse.kafka.InstanceSlot})
 */
public record KafkaSettings(
        Map<String, String> clientProperties,
        TopicNames topics,
        boolean createTopics,
        int partitions,
        int replicationFactor,
        String instanceId) {

    public KafkaSettings {
        clientProperties = Map.copyOf(clientProperties);
        Require.that(
                ConfigKeys.KAFKA_BOOTSTRAP_SERVERS,
                !clientProperties.getOrDefault("bootstrap.servers", "").isBlank(),
                "must not be empty");
        Objects.requireNonNull(topics, "topics");
        Require.atLeastOne(ConfigKeys.TOPICS_PARTITIONS, partitions);
        Require.that(
                ConfigKeys.TOPICS_REPLICATION_FACTOR,
                replicationFactor == -1 || replicationFactor >= 1,
                "must be -1 (broker default) or at least 1");
        Require.given(ConfigKeys.INSTANCE_ID, instanceId);
    }

    public static KafkaSettings from(ConfigSource source) {
        return source.build(() -> new KafkaSettings(
                source.kafkaClientProperties(),
                TopicNames.from(source),
                source.bool(ConfigKeys.TOPICS_CREATE),
                source.integer(ConfigKeys.TOPICS_PARTITIONS),
                source.integer(ConfigKeys.TOPICS_REPLICATION_FACTOR),
                source.string(ConfigKeys.INSTANCE_ID)));
    }

    public String bootstrapServers() {
        return clientProperties.get("bootstrap.servers");
    }
}
