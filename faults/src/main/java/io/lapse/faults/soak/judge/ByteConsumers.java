package io.lapse.faults.soak.judge;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The soak's readers of topics: no group, nothing committed, only what transactions committed. */
public final class ByteConsumers {

    private ByteConsumers() {}

    public static KafkaConsumer<byte[], byte[]> create(String bootstrapServers, Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"));
        config.putAll(overrides);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
