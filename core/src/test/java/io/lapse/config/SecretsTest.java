package io.lapse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretsTest {

    @TempDir
    Path dir;

    @Test
    void credentialKeysAreRecognisedByTheirNames() {
        assertThat(Secrets.isSecret("kafka.ssl.keystore.key")).isTrue();
        assertThat(Secrets.isSecret("kafka.ssl.key.password")).isTrue();
        assertThat(Secrets.isSecret("kafka.ssl.keystore.password")).isTrue();
        assertThat(Secrets.isSecret("kafka.sasl.jaas.config")).isTrue();
        assertThat(Secrets.isSecret("kafka.sasl.oauthbearer.token.endpoint.url"))
                .isTrue();
        assertThat(Secrets.isSecret("upstream.token")).isTrue();
        assertThat(Secrets.isSecret("upstream.bearer-token")).isTrue();
        assertThat(Secrets.isSecret("upstream.headers.X-Api-Key")).isTrue();
        assertThat(Secrets.isSecret("upstream.headers.Authorization")).isTrue();
        assertThat(Secrets.isSecret("upstream.client.passphrase")).isTrue();
        assertThat(Secrets.isSecret("redis.tls.truststore-password")).isTrue();
        assertThat(Secrets.isSecret("vault.client-secret")).isTrue();

        assertThat(Secrets.isSecret("redis.key-prefix")).isFalse();
        assertThat(Secrets.isSecret("redis.tls.truststore")).isFalse();
        assertThat(Secrets.isSecret("kafka.ssl.truststore.location")).isFalse();
        assertThat(Secrets.isSecret("timer.ttl")).isFalse();
    }

    @Test
    void userInformationInAnyUrlIsMasked() {
        assertThat(Secrets.scrub("cannot reach http://user:token@host/api and redis://:pw@redis:6379/0"))
                .isEqualTo("cannot reach http://****@host/api and redis://****@redis:6379/0");
        assertThat(Secrets.display("upstream.base-url", "http://user:to ken@host/api"))
                .isEqualTo("http://****@host/api");
        assertThat(Secrets.display("redis.uri", "rediss://lapse:p@ss@redis:6380"))
                .isEqualTo("rediss://****@redis:6380");
        assertThat(Secrets.display("kafka.bootstrap.servers", "broker:9092")).isEqualTo("broker:9092");
    }

    @Test
    void theStartUpListOfSettingsShowsNoCredential() throws IOException {
        Path file = Files.writeString(dir.resolve("lapse.properties"), """
                kafka.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="jaas-secret";
                kafka.ssl.key.password=key-password-secret
                upstream.base-url=http://user:url-token-secret@host/api
                """);

        String listed = ConfigSource.load(
                        file,
                        Map.of(
                                "LAPSE_KAFKA_SSL_KEYSTORE_KEY",
                                "pem-key-secret",
                                "LAPSE_REDIS_URI",
                                "redis://lapse:redis-secret@redis:6379",
                                "LAPSE_REDIS_TLS_TRUSTSTORE_PASSWORD",
                                "truststore-secret"))
                .describeOverrides();

        assertThat(listed)
                .doesNotContain(
                        "jaas-secret",
                        "key-password-secret",
                        "url-token-secret",
                        "pem-key-secret",
                        "redis-secret",
                        "truststore-secret");
        assertThat(listed)
                .contains(
                        "kafka.ssl.keystore.key=****",
                        "redis.uri=redis://****@redis:6379",
                        "upstream.base-url=http://****@host/api");
    }

    @Test
    void aMalformedUrlIsRejectedWithoutEchoingItsPassword() {
        assertThatThrownBy(
                        () -> LapseConfig.load(null, Map.of("LAPSE_REDIS_URI", "redis://lapse:bad secret@redis:6379")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("redis.uri")
                .hasMessageNotContaining("bad secret")
                .hasMessageNotContaining("secret@");
        assertThatThrownBy(
                        () -> LapseConfig.load(null, Map.of("LAPSE_UPSTREAM_BASE_URL", "http://user:to ken@host/api")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("upstream.base-url")
                .hasMessageNotContaining("to ken")
                .hasMessageNotContaining("ken@");
        assertThatThrownBy(() -> LapseConfig.load(null, Map.of("LAPSE_REDIS_URI", "localhost:6379@secret")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("is not a Redis URI");
    }

    @Test
    void settingsRecordsDoNotPrintPasswords() {
        RedisSettings settings = LapseConfig.load(
                        null,
                        Map.of(
                                "LAPSE_REDIS_URI",
                                "rediss://u:pw-secret@r:6380",
                                "LAPSE_REDIS_TLS_TRUSTSTORE_PASSWORD",
                                "ts-secret"))
                .redis();

        assertThat(settings.toString()).doesNotContain("pw-secret", "ts-secret").contains("rediss://****@r:6380");
    }
}
