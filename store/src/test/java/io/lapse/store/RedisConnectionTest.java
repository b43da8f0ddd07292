package io.lapse.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigException;
import io.lapse.config.RedisSettings;
import io.lapse.config.RedisTls;
import io.lapse.devstack.RedisServer;
import io.lapse.devstack.SelfSignedTls;
import io.lapse.lifecycle.StartupRetry;
import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("slow")
class RedisConnectionTest {

    @TempDir
    Path dir;

    @Test
    void aConnectionOpenedBeforeRedisStartsWaitsForItAndSaysSo() throws Exception {
        try (RedisServer server = RedisServer.start();
                StartupRetry startup = new StartupRetry()) {
            CompletableFuture<RedisConnection> opening = openWhileStopped(server, startup);

            assertThat(startup.problem().get()).contains("waiting for Redis at " + server.uri(), "attempt 1 failed");
            assertThat(opening).isNotDone();

            server.restart();
            try (RedisConnection connection = opening.get(30, TimeUnit.SECONDS)) {
                assertThat(connection.async().ping().get(5, TimeUnit.SECONDS)).isEqualTo("PONG");
            }
            assertThat(startup.problem())
                    .as("no longer waiting, not finished yet")
                    .hasValue("starting");
        }
    }

    @Test
    void aConnectionAndItsPubSubAnswerOnTheAsyncApiAndRefuseTheBlockingOneWithALineThatSaysSo() throws Exception {
        try (RedisServer server = RedisServer.start();
                RedisConnection connection = RedisConnection.open(new RedisSettings(server.uri(), false, "lapse"));
                StatefulRedisPubSubConnection<String, String> pubSub = connection.pubSub()) {
            BlockingQueue<String> heard = new LinkedBlockingQueue<>();
            pubSub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    heard.add(message);
                }
            });
            pubSub.async().subscribe("wakes").get(5, TimeUnit.SECONDS);

            connection.async().publish("wakes", "3").get(5, TimeUnit.SECONDS);

            assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("3");
            assertThatThrownBy(pubSub::sync).hasMessageContaining("use async()");
            assertThatThrownBy(pubSub::reactive).hasMessageContaining("use async()");
        }
    }

    @Test
    void closingTheStartUpEndsTheWait() throws Exception {
        try (RedisServer server = RedisServer.start();
                StartupRetry startup = new StartupRetry()) {
            CompletableFuture<RedisConnection> opening = openWhileStopped(server, startup);

            startup.close();

            assertThatThrownBy(() -> opening.get(20, TimeUnit.SECONDS)).hasMessageContaining("stopped while waiting");
        }
    }

    @Test
    void anAclUserWithPasswordConnectsOverTlsTrustingTheConfiguredTruststore() throws Exception {
        SelfSignedTls tls = SelfSignedTls.create(dir, "redis");
        int tlsPort = freePort();
        try (RedisServer server = RedisServer.start(tlsArgs(tls, tlsPort, tls.certificatePem(), "no"))) {
            RedisTls trust = new RedisTls(Optional.of(tls.truststore()), tls.password(), Optional.empty(), "");
            String uri = "rediss://lapse:s3cret@localhost:" + tlsPort;

            try (RedisConnection connection = RedisConnection.open(new RedisSettings(uri, false, "lapse", trust))) {
                connection.async().set("tls-check", "ok").get(5, TimeUnit.SECONDS);
                assertThat(connection.async().get("tls-check").get(5, TimeUnit.SECONDS))
                        .isEqualTo("ok");
                assertThat(connection.async().aclWhoami().get(5, TimeUnit.SECONDS))
                        .isEqualTo("lapse");
            }
            assertThatThrownBy(() -> RedisConnection.open(
                            new RedisSettings("rediss://lapse:wrong@localhost:" + tlsPort, false, "lapse", trust)))
                    .as("a wrong password")
                    .isInstanceOf(RedisException.class);
            assertThatThrownBy(() -> RedisConnection.open(new RedisSettings(uri, false, "lapse")))
                    .as("without the truststore the self-signed certificate is not trusted")
                    .isInstanceOf(RedisException.class);
        }
    }

    @Test
    void aClientCertificateFromTheKeystoreSatisfiesAServerThatRequiresOne() throws Exception {
        SelfSignedTls serverTls = SelfSignedTls.create(dir, "redis");
        SelfSignedTls clientTls = SelfSignedTls.create(dir, "client");
        Path trustedByServer = Files.writeString(
                dir.resolve("ca.crt"),
                Files.readString(serverTls.certificatePem()) + Files.readString(clientTls.certificatePem()));
        int tlsPort = freePort();
        try (RedisServer server = RedisServer.start(tlsArgs(serverTls, tlsPort, trustedByServer, "yes"))) {
            String uri = "rediss://lapse:s3cret@localhost:" + tlsPort;
            RedisTls mutual = new RedisTls(
                    Optional.of(serverTls.truststore()),
                    serverTls.password(),
                    Optional.of(clientTls.keystore()),
                    clientTls.password());

            try (RedisConnection connection = RedisConnection.open(new RedisSettings(uri, false, "lapse", mutual))) {
                assertThat(connection.async().ping().get(5, TimeUnit.SECONDS)).isEqualTo("PONG");
            }
            RedisTls trustOnly =
                    new RedisTls(Optional.of(serverTls.truststore()), serverTls.password(), Optional.empty(), "");
            assertThatThrownBy(() -> RedisConnection.open(new RedisSettings(uri, false, "lapse", trustOnly)))
                    .as("no client certificate")
                    .isInstanceOf(RedisException.class);
        }
    }

    @Test
    void aUriLettuceRejectsIsReportedWithoutItsPassword() {
        // a well-formed URI whose database is not a number: RedisSettings takes it, Lettuce does not
        assertThatThrownBy(
                        () -> RedisConnection.open(new RedisSettings("redis://u:pw-secret@host:6379/db", false, "x")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("redis.uri")
                .hasMessageContaining("Lettuce accepts")
                .hasMessageNotContaining("secret");
    }

    /** Stops the server, then opens a connection to it in the background, which is soon waiting for it. */
    private static CompletableFuture<RedisConnection> openWhileStopped(RedisServer server, StartupRetry startup) {
        server.stop();
        CompletableFuture<RedisConnection> opening = CompletableFuture.supplyAsync(
                () -> RedisConnection.open(new RedisSettings(server.uri(), false, "lapse"), startup));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> startup.problem().orElse("").startsWith("waiting for"));
        return opening;
    }

    /** TLS beside the plain port (which the devstack pings), and an ACL user beside the default one. */
    private static List<String> tlsArgs(SelfSignedTls tls, int tlsPort, Path trustedClients, String authClients) {
        return new ArrayList<>(List.of(
                "--tls-port",
                Integer.toString(tlsPort),
                "--tls-cert-file",
                tls.certificatePem().toString(),
                "--tls-key-file",
                tls.keyPem().toString(),
                "--tls-ca-cert-file",
                trustedClients.toString(),
                "--tls-auth-clients",
                authClients,
                "--user",
                "lapse",
                "on",
                ">s3cret",
                "~*",
                "&*",
                "+@all"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
