package io.lapse.bench.load;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * How every benchmark writes pushes: as a busy upstream does, acks=1 (so no idempotence, which needs acks=all),
 * lingering 5 ms and compressing with lz4, whatever Lapse's own producers do.
 */
public final class UpstreamProducerSettings {

    private static final Map<String, Object> UPSTREAM = Map.of(
            ProducerConfig.ACKS_CONFIG,
            "1",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            false,
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.COMPRESSION_TYPE_CONFIG,
            "lz4");

    private UpstreamProducerSettings() {}

    /** @param tuning what the one benchmark needs besides (batch size, buffer memory, max block) */
    public static Map<String, Object> with(Map<String, Object> tuning) {
        Map<String, Object> settings = new HashMap<>(UPSTREAM);
        settings.putAll(tuning);
        return Map.copyOf(settings);
    }
}
