package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.config.LapseConfig;
import io.lapse.config.UpstreamSettings;
import io.lapse.event.TimerExpired;
import io.lapse.puller.UpstreamStub;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An https upstream with a certificate of its own, trusted through upstream.truststore.* or not at all. */
@Tag("slow")
class UpstreamTlsTest {

    private static final String SERVER_PASSWORD = "server-pw";
    private static final String TRUST_PASSWORD = "trust-pw";

    @TempDir
    static Path dir;

    private static Path truststore;
    private static UpstreamStub stub;

    @BeforeAll
    static void startHttpsUpstream() throws Exception {
        Path server = dir.resolve("server.p12");
        Path certificate = dir.resolve("server.cer");
        truststore = dir.resolve("trust.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "upstream",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-validity",
                "2",
                "-keystore",
                server.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                SERVER_PASSWORD);
        keytool(
                "-exportcert",
                "-alias",
                "upstream",
                "-keystore",
                server.toString(),
                "-storepass",
                SERVER_PASSWORD,
                "-file",
                certificate.toString());
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "upstream",
                "-file",
                certificate.toString(),
                "-keystore",
                truststore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                TRUST_PASSWORD);
        stub = UpstreamStub.startTls(serverContext(server));
    }

    @AfterAll
    static void stopUpstream() {
        stub.close();
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        assertThat(keytool.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as("keytool %s: %s", args[0], output).isZero();
    }

    private static SSLContext serverContext(Path keystore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, SERVER_PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, SERVER_PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    private static UpstreamSettings settings(Map<String, String> overrides) {
        // a first handshake on a busy machine may take seconds: this is about trust, not speed
        Map<String, String> all = new HashMap<>(Map.of(
                "upstream.base-url",
                stub.baseUrl(),
                "upstream.retry-backoff",
                "10ms",
                "upstream.max-attempts",
                "1",
                "upstream.timeout",
                "15s"));
        all.putAll(overrides);
        return LapseConfig.load(null, Map.of()).with(all).upstream();
    }

    private static PullOutcome pull(UpstreamSettings settings, String orderId) throws InterruptedException {
        try (Asking asking = Asking.build(settings, Clock.systemUTC(), new SimpleMeterRegistry(), () -> true)) {
            return asking.upstream()
                    .pull(new Pull(
                            new TimerExpired(orderId, 2_000, 1_000, 1, 2_010, TimerExpired.Source.TIMER, false), 0));
        }
    }

    @Test
    void anHttpsUpstreamIsTrustedThroughTheConfiguredTruststore() throws Exception {
        PullOutcome outcome = pull(
                settings(Map.of(
                        "upstream.truststore.path",
                        truststore.toString(),
                        "upstream.truststore.password",
                        TRUST_PASSWORD)),
                "tls-1");

        assertThat(outcome.kind()).as(outcome.error()).isEqualTo(PullOutcome.Kind.OK);
        assertThat(stub.requests("tls-1")).isEqualTo(1);
    }

    @Test
    void withoutTheTruststoreTheHandshakeFailsAndNoRequestReachesUpstream() throws Exception {
        PullOutcome outcome = pull(settings(Map.of()), "tls-2");

        assertThat(outcome.kind()).isEqualTo(PullOutcome.Kind.UNANSWERED);
        assertThat(outcome.error()).startsWith("upstream unreachable: javax.net.ssl.SSLHandshakeException");
        assertThat(stub.requests("tls-2")).isZero();
    }

    @Test
    void aTruststoreThatCannotBeLoadedStopsTheStartNamingTheKey() {
        UpstreamSettings wrongPassword = settings(
                Map.of("upstream.truststore.path", truststore.toString(), "upstream.truststore.password", "not it"));

        assertThatThrownBy(() -> pull(wrongPassword, "tls-3"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("upstream.truststore.path: cannot load " + truststore + " as PKCS12")
                .message()
                .doesNotContain("not it");
    }
}
