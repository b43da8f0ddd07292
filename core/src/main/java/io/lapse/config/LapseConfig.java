package io.lapse.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/** The whole, validated configuration of a Lapse process; each part validates itself when built. */
public record LapseConfig(
        KafkaSettings kafka,
        RedisSettings redis,
        TimerSettings timer,
        IngestSettings ingest,
        FleetSettings fleet,
        UpstreamSettings upstream,
        CompensatorSettings compensator,
        ManagementSettings management,
        ConfigSource source) {

    public LapseConfig {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(timer, "timer");
        Objects.requireNonNull(ingest, "ingest");
        Objects.requireNonNull(fleet, "fleet");
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(compensator, "compensator");
        Objects.requireNonNull(management, "management");
        Objects.requireNonNull(source, "source");
    }

    public static LapseConfig from(ConfigSource source) {
        return new LapseConfig(
                KafkaSettings.from(source),
                RedisSettings.from(source),
                TimerSettings.from(source),
                IngestSettings.from(source),
                FleetSettings.from(source),
                UpstreamSettings.from(source),
                CompensatorSettings.from(source),
                ManagementSettings.from(source),
                source);
    }

    public int managementPort() {
        return management.port();
    }

    /** Defaults, then the file (when not null), then the environment. */
    public static LapseConfig load(Path file, Map<String, String> env) {
        return from(ConfigSource.load(file, env));
    }

    /** This configuration with some keys replaced, validated again. */
    public LapseConfig with(Map<String, String> overrides) {
        return from(source.with(overrides));
    }

    public TopicNames topics() {
        return kafka.topics();
    }
}
