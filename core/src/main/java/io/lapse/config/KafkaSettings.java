package io.lapse.config;

import java.util.Map;

/**
 * How to reach Kafka and which topics to use.
 *
 * @param clientProperties passed to every Kafka client (bootstrap.servers and any kafka.* key)
 * @param replicationFactor of created topics, or -1 for the broker's default
 * @param instanceId        this process's static-membership id in its consumer groups, or empty to take one from
 *                          the host name (see {@code io.lapse.kafka.InstanceSlot})
 */
public record KafkaSettings(Map<String, String> clientProperties, TopicNames topics, boolean createTopics,
                            int partitions, int replicationFactor, String instanceId) {

    public KafkaSettings {
        clientProperties = Map.copyOf(clientProperties);
        if (clientProperties.getOrDefault("bootstrap.servers", "").isBlank()) {
            throw new ConfigException(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.name() + " is empty");
        }
    }

    public static KafkaSettings from(ConfigSource source) {
        int partitions = source.integer(ConfigKeys.TOPICS_PARTITIONS);
        if (partitions < 1) {
            throw source.invalid(ConfigKeys.TOPICS_PARTITIONS, "must be at least 1");
        }
        int replication = source.integer(ConfigKeys.TOPICS_REPLICATION_FACTOR);
        if (replication == 0 || replication < -1) {
            throw source.invalid(ConfigKeys.TOPICS_REPLICATION_FACTOR, "must be -1 (broker default) or at least 1");
        }
        return new KafkaSettings(source.kafkaClientProperties(), TopicNames.from(source),
                source.bool(ConfigKeys.TOPICS_CREATE), partitions, replication, source.string(ConfigKeys.INSTANCE_ID));
    }

    public String bootstrapServers() {
        return clientProperties.get("bootstrap.servers");
    }
}
