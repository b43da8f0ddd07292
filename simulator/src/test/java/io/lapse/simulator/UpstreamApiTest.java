package io.lapse.simulator;

import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.time.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UpstreamApiTest {

    private final SettableClock clock = SettableClock.at(1_763_780_000_000L);
    private final Fleet fleet = new Fleet(clock);
    private final UpstreamApi api = new UpstreamApi(fleet, 0, 0, Duration.ZERO);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() {
        api.start();
    }

    @AfterEach
    void close() {
        api.close();
    }

    @Test
    void aKnownOrderIsAnsweredWithItsStatusAsAValidStatusPush() throws Exception {
        fleet.start("order 1");
        clock.advance(Duration.ofSeconds(42));

        HttpResponse<byte[]> response = get("/orders/order%201/status");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        StatusPush status = JsonCodec.STATUS_PUSH.decode(response.body());
        assertThat(status.orderId()).isEqualTo("order 1");
        assertThat(status.status()).isEqualTo("CHARGING");
        assertThat(status.ts()).isEqualTo(clock.millis());
        assertThat(status.payload()).containsKeys("soc", "power");
        assertThat(fleet.pullsServed("order 1")).isEqualTo(1);
    }

    @Test
    void anUnknownOrderIsNotFound() throws Exception {
        assertThat(get("/orders/nope/status").statusCode()).isEqualTo(404);
    }

    @Test
    void otherPathsAreNotFoundAndOtherMethodsNotAllowed() throws Exception {
        fleet.start("o-1");

        assertThat(get("/orders/o-1").statusCode()).isEqualTo(404);
        assertThat(get("/orders/o-1/status/extra").statusCode()).isEqualTo(404);
        assertThat(get("/health").statusCode()).isEqualTo(404);
        HttpResponse<byte[]> post = send(HttpRequest.newBuilder(uri("/orders/o-1/status"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET");
        assertThat(fleet.pullsServed("o-1")).isZero();
    }

    @Test
    void anErrorRateOfOneAnswersEveryRequestWith503UntilItIsLowered() throws Exception {
        fleet.start("o-1");
        api.errorRate(1.0);

        assertThat(get("/orders/o-1/status").statusCode()).isEqualTo(503);
        assertThat(get("/orders/nope/status").statusCode()).isEqualTo(503);

        api.errorRate(0);
        assertThat(get("/orders/o-1/status").statusCode()).isEqualTo(200);
        assertThat(fleet.pullsServed("o-1")).isEqualTo(1);
    }

    @Test
    void addedLatencyDelaysEveryAnswerWithoutQueueingConcurrentRequests() {
        fleet.start("o-1");
        api.latency(Duration.ofMillis(800));
        int requests = 16; // four times the handler threads: sleeping handlers would take over 3 s

        long started = System.nanoTime();
        List<CompletableFuture<HttpResponse<byte[]>>> answers = IntStream.range(0, requests)
                .mapToObj(i -> http.sendAsync(HttpRequest.newBuilder(uri("/orders/o-1/status")).build(),
                        HttpResponse.BodyHandlers.ofByteArray()))
                .toList();
        answers.forEach(answer -> assertThat(answer.join().statusCode()).isEqualTo(200));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).isBetween(Duration.ofMillis(800), Duration.ofMillis(2_000));
    }

    @Test
    void startAndCloseAreIdempotentAndTheBaseUrlNamesTheLoopbackPort() {
        api.start();
        assertThat(api.baseUrl()).matches("http://127\\.0\\.0\\.1:\\d+");

        api.close();
        api.close();
        assertThatThrownBy(api::start).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new UpstreamApi(fleet, 0, 0, Duration.ZERO).baseUrl())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not started");
    }

    @Test
    void faultsAreValidated() {
        assertThatThrownBy(() -> api.errorRate(1.5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("errorRate must be between 0 and 1, got 1.5");
        assertThatThrownBy(() -> api.latency(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latency must be zero or positive");
    }

    private HttpResponse<byte[]> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build());
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private URI uri(String path) {
        return URI.create(api.baseUrl() + path);
    }
}
