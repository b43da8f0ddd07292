package io.lapse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LapseConfigTest {

    @TempDir
    Path dir;

    @Test
    void defaultsFollowTheContract() {
        LapseConfig config = LapseConfig.load(null, Map.of());

        assertThat(config.timer().ttl()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.timer().repeat()).isEqualTo(config.timer().ttl());
        assertThat(config.timer().maxAttempts()).isEqualTo(10);
        assertThat(config.timer().mode()).isEqualTo(TimerMode.ZSET);
        assertThat(config.timer().tombstoneRetention()).isEqualTo(Duration.ofHours(24));
        assertThat(config.timer().maxClockSkew()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.timer().isTerminal("finished")).isTrue();
        assertThat(config.timer().isTerminal("CHARGING")).isFalse();
        assertThat(config.upstream().timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.topics())
                .isEqualTo(new TopicNames(
                        "charging.status.push",
                        "charging.timer.expired",
                        "charging.status.pulled",
                        "charging.status.dlq",
                        "lapse.timer.shards",
                        "charging.fleet.events",
                        "lapse.puller.parked"));
    }

    @Test
    void environmentOverridesTheFileWhichOverridesTheDefaults() throws IOException {
        Path file = write("timer.ttl=60s\ntimer.max-attempts=3\nredis.uri=redis://file:6379\n");

        LapseConfig config = LapseConfig.load(
                file,
                Map.of("LAPSE_TIMER_TTL", "PT30S", "LAPSE_KAFKA_BOOTSTRAP_SERVERS", "broker:9092", "PATH", "/bin"));

        assertThat(config.timer().ttl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.timer().maxAttempts()).isEqualTo(3);
        assertThat(config.redis().uri()).isEqualTo("redis://file:6379");
        assertThat(config.kafka().bootstrapServers()).isEqualTo("broker:9092");
    }

    @Test
    void otherKafkaKeysReachTheClientsFromFileAndEnvironment() throws IOException {
        Path file = write("kafka.security.protocol=SSL\n");

        LapseConfig config = LapseConfig.load(file, Map.of("LAPSE_KAFKA_CLIENT_DNS_LOOKUP", "use_all_dns_ips"));

        assertThat(config.kafka().clientProperties())
                .containsEntry("security.protocol", "SSL")
                .containsEntry("client.dns.lookup", "use_all_dns_ips")
                .containsEntry("bootstrap.servers", "localhost:9092");
    }

    @Test
    void aMistypedKeyIsRejectedNamingTheKeyItWasMeantToBe() throws IOException {
        Path file = write("timer.tll=60s\n");

        assertThatThrownBy(() -> LapseConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("unknown configuration key 'timer.tll' from file " + file + " (did you mean timer.ttl?)");
    }

    @Test
    void aKeyUnlikeAnyIsRejectedNamingTheKeysOfItsGroup() throws IOException {
        Path file = write("redis.address=redis://elsewhere:6379\n");

        assertThatThrownBy(() -> LapseConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown configuration key 'redis.address'")
                .hasMessageContaining("keys of that group: redis.uri, ");
    }

    @Test
    void aMistypedVariableIsRejectedNamingTheVariableItWasMeantToBe() {
        assertThatThrownBy(() -> LapseConfig.load(null, Map.of("LAPSE_REDIS_URL", "redis://elsewhere:6379")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("unknown environment variable LAPSE_REDIS_URL (did you mean LAPSE_REDIS_URI?)");
        assertThatThrownBy(() -> LapseConfig.load(null, Map.of("LAPSE_LOG_FORMT", "json")))
                .hasMessage("unknown environment variable LAPSE_LOG_FORMT (did you mean LAPSE_LOG_FORMAT?)");
    }

    @Test
    void aVariableUnlikeAnyIsRejectedNamingTheVariablesOfItsGroup() {
        assertThatThrownBy(() -> LapseConfig.load(null, Map.of("LAPSE_LOG_COLOUR", "always")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("unknown environment variable LAPSE_LOG_COLOUR "
                        + "(variables of that group: LAPSE_LOG_FORMAT, LAPSE_LOG_LEVEL)");
    }

    @Test
    void variablesThatAreNotSettingsKafkaPropertiesAndHeadersAreAccepted() {
        LapseConfig config = LapseConfig.load(
                null,
                Map.of(
                        "LAPSE_JAVA_OPTS", "-Xmx1g",
                        "LAPSE_LOG_FORMAT", "json",
                        "LAPSE_KAFKA_CLIENT_DNS_LOOKUP", "use_all_dns_ips",
                        "LAPSE_UPSTREAM_HEADERS_X_API_KEY", "secret",
                        "PATH", "/usr/bin"));

        assertThat(config.kafka().clientProperties()).containsEntry("client.dns.lookup", "use_all_dns_ips");
    }

    @Test
    void badValuesAreRejectedAtOnceNamingKeyAndOrigin() {
        assertRejected(
                Map.of("LAPSE_TIMER_TTL", "soon"), "timer.ttl (environment LAPSE_TIMER_TTL): 'soon' is not a duration");
        assertRejected(Map.of("LAPSE_TIMER_TTL", "0s"), "timer.ttl (environment LAPSE_TIMER_TTL): must be positive");
        assertRejected(Map.of("LAPSE_TIMER_MAX_ATTEMPTS", "0"), "timer.max-attempts");
        assertRejected(Map.of("LAPSE_TIMER_MODE", "wheel"), "'wheel' is neither zset nor ttl");
        assertRejected(Map.of("LAPSE_REDIS_URI", "localhost:6379"), "is not a Redis URI");
        assertRejected(Map.of("LAPSE_REDIS_CLUSTER", "yes"), "'yes' is neither true nor false");
        assertRejected(Map.of("LAPSE_UPSTREAM_BASE_URL", "ftp://x"), "must be an http or https URL");
        assertRejected(Map.of("LAPSE_MANAGEMENT_PORT", "70000"), "management.port");
        assertRejected(Map.of("LAPSE_TIMER_SHARDS", "many"), "'many' is not a whole number");
    }

    @Test
    void aValueItsRecordRefusesIsReportedOnOneLineWithTheFileThatSetIt() throws IOException {
        Path file = write("timer.shards=0\n");

        assertThatThrownBy(() -> LapseConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("timer.shards (file " + file + "): must be between 1 and 1024");
    }

    @Test
    void aRefusedHeaderIsReportedByItsVariableWithoutItsValue() {
        assertRejected(
                Map.of("LAPSE_UPSTREAM_HEADERS_X_API_KEY", "key-secret\nHost: evil"),
                "upstream.headers.x-api-key (environment LAPSE_UPSTREAM_HEADERS_X_API_KEY): not a header the puller may send");
        assertThatThrownBy(() ->
                        LapseConfig.load(null, Map.of("LAPSE_UPSTREAM_HEADERS_X_API_KEY", "key-secret\nHost: evil")))
                .hasMessageNotContaining("key-secret");
    }

    private static void assertRejected(Map<String, String> env, String message) {
        assertThatThrownBy(() -> LapseConfig.load(null, env))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }

    @Test
    void overridesAreValidatedAgain() {
        LapseConfig config = LapseConfig.load(null, Map.of());

        assertThat(config.with(Map.of("timer.ttl", "9s")).timer().ttl()).isEqualTo(Duration.ofSeconds(9));
        assertThatThrownBy(() -> config.with(Map.of("timer.lease", "-1s"))).hasMessageContaining("timer.lease");
    }

    @Test
    void theStartupDescriptionShowsOverridesWithoutSecrets() {
        ConfigSource source = ConfigSource.defaults()
                .with(Map.of("redis.uri", "redis://user:pw@host:6379", "kafka.sasl.jaas.config", "secret stuff"));

        assertThat(source.describeOverrides())
                .contains("redis.uri=redis://****@host:6379  (override)")
                .contains("kafka.sasl.jaas.config=****")
                .doesNotContain("pw")
                .doesNotContain("secret stuff");
    }

    @Test
    void everyKeyHasItsEnvironmentVariable() {
        assertThat(ConfigKeys.TIMER_MAX_ATTEMPTS.envName()).isEqualTo("LAPSE_TIMER_MAX_ATTEMPTS");
        assertThat(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.envName()).isEqualTo("LAPSE_KAFKA_BOOTSTRAP_SERVERS");
    }

    private Path write(String text) throws IOException {
        Path file = dir.resolve("lapse.properties");
        Files.writeString(file, text);
        return file;
    }
}
