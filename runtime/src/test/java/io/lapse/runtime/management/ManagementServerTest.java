package io.lapse.runtime.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.config.ManagementSettings;
import io.lapse.lifecycle.ServiceLoop;
import io.lapse.store.timers.TimerCounts;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
}
