package io.lapse.runtime.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.config.ManagementSettings;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.TimerCounts;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class ManagementServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ManagementSettings LOCAL_ANY_PORT = new ManagementSettings("127.0.0.1", 0, "lapse");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Health health = new Health();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    @Test
    void readinessNamesTheFailingCheckAndWhatItWaitsFor() throws Exception {
        health.register("ingest", () -> true);
        health.registerReadiness("redis", () -> Optional.of("waiting for Redis at redis://redis:6379 (attempt 3)"));
        ManagementServer server = start(LOCAL_ANY_PORT);

        HttpResponse<String> ready = get(server, "/health/ready");

        assertThat(ready.statusCode()).isEqualTo(503);
        JsonNode body = JSON.readTree(ready.body());
        assertThat(body.get("status").asText()).isEqualTo("DOWN");
        assertThat(body.get("checks").get("ingest").asText()).isEqualTo("UP");
        assertThat(body.get("failing").get("redis").asText()).contains("waiting for Redis");
        assertThat(get(server, "/health/live").statusCode()).isEqualTo(200);
    }

    @Test
    void livenessIsDownWhileALoopOfAServiceIsDeadAndUpAgainOnceItIsClosed() throws Exception {
        ManagementServer server = start(LOCAL_ANY_PORT);
        ServiceLoop dying = new ServiceLoop(
                "test-management-dying",
                () -> {
                    throw new InterruptedException("interrupted by a stray thread");
                },
                () -> {},
                () -> {});
        health.registerLiveness("ingest", () -> ServiceLoop.livenessProblemOf(dying));
        dying.start();

        await().atMost(Duration.ofSeconds(5))
                .until(() -> get(server, "/health/live").statusCode() == 503);
        assertThat(JSON.readTree(get(server, "/health/live").body())
                        .get("failing")
                        .get("ingest")
                        .asText())
                .contains("test-management-dying has stopped");

        dying.close();
        assertThat(get(server, "/health/live").statusCode()).isEqualTo(200);
    }

    @Test
    void aServiceThatSaysItIsNotAliveTakesLivenessDown() throws Exception {
        health.registerLiveness("compensator", () -> false);
        ManagementServer server = start(LOCAL_ANY_PORT);

        HttpResponse<String> live = get(server, "/health/live");

        assertThat(live.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(live.body()).get("failing").has("compensator")).isTrue();
    }

    @Test
    void keepsAnsweringWhileClientsHoldIdleConnectionsOpen() throws Exception {
        ManagementServer server = start(LOCAL_ANY_PORT);
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 64; i++) { // connected, nothing sent
                idle.add(new Socket("127.0.0.1", server.port()));
            }
            for (int i = 0; i < 16; i++) { // one request answered, then kept alive and silent
                Socket keptAlive = new Socket("127.0.0.1", server.port());
                keptAlive
                        .getOutputStream()
                        .write("GET /health/live HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(readStatusLine(keptAlive.getInputStream())).startsWith("HTTP/1.1 200");
                idle.add(keptAlive);
            }

            HttpResponse<String> live = get(server, "/health/live");

            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(get(server, "/metrics").statusCode()).isEqualTo(200);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    @Test
    void healthAnswersWithin100MsWhileMoreClientsThanThreadsSendHalfARequestAndWait() throws Exception {
        ManagementServer server = start(LOCAL_ANY_PORT);
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 32; i++) { // a request begun and never finished, as by a stuck or hostile client
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.getOutputStream().write("G".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                stalled.add(socket);
            }
            get(server, "/health/live"); // the client's own connection set up

            long started = System.nanoTime();
            HttpResponse<String> live = get(server, "/health/live");
            long millis = (System.nanoTime() - started) / 1_000_000;

            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(millis).as("health answered in %d ms", millis).isLessThan(100);
            assertThat(get(server, "/metrics").statusCode()).isEqualTo(200);
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void aConnectionThatStallsMidRequestIsClosed() throws Exception {
        ManagementServer server = start(LOCAL_ANY_PORT);
        try (Socket stalled = new Socket("127.0.0.1", server.port())) {
            stalled.getOutputStream().write("GET /health/li".getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            stalled.setSoTimeout(15_000);

            long started = System.nanoTime();
            int read = stalled.getInputStream().read();

            assertThat(read)
                    .as("the server hung up (or answered 408 and hung up)")
                    .isIn(-1, (int) 'H');
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void bindsOnlyTheConfiguredAddress() throws Exception {
        ManagementServer server = start(LOCAL_ANY_PORT);
        Optional<InetAddress> other = nonLoopbackAddress();

        assertThat(get(server, "/health/live").statusCode()).isEqualTo(200);
        if (other.isPresent()) {
            assertThatThrownBy(() -> {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress(other.get(), server.port()), 2_000);
                        }
                    })
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void servesTheStatusPageAndItsDataOnceTheWiringProvidesIt() throws Exception {
        ManagementServer server = start(LOCAL_ANY_PORT);

        HttpResponse<String> page = get(server, "/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).contains("text/html"));
        assertThat(page.body()).contains("<title>Lapse status</title>", "status.json");
        assertThat(get(server, "/nothing-here").statusCode()).isEqualTo(404);
        assertThat(get(server, "/status.json").statusCode())
                .as("before the wiring provides a source")
                .isEqualTo(503);

        server.showStatus(() -> new ProcessReport(
                1,
                new TimerCounts(7, 1L, 0L, 0),
                1L,
                List.of(),
                new ProcessReport.Lateness(0, null, null, List.of()),
                java.util.Map.of(),
                java.util.Map.of(),
                java.util.Map.of(),
                2,
                null,
                null,
                List.of()));
        HttpResponse<String> status = get(server, "/status.json");

        assertThat(status.statusCode()).isEqualTo(200);
        JsonNode process = JSON.readTree(status.body()).get("process");
        assertThat(process.get("timers").get("watched").asLong()).isEqualTo(7);
        assertThat(process.get("deadLetters").asLong()).isEqualTo(2);
    }

    private ManagementServer start(ManagementSettings settings) {
        ManagementServer server = ManagementServer.start(settings, registry, health);
        toClose.add(server);
        return server;
    }

    private HttpResponse<String> get(ManagementServer server, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String readStatusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        in.skip(in.available()); // the rest of the small response, already here or not: only the status matters
        return line.toString();
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        return NetworkInterface.networkInterfaces()
                .filter(nic -> {
                    try {
                        return nic.isUp() && !nic.isLoopback();
                    } catch (IOException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .findFirst();
    }
}
