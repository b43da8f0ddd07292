package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.time.SettableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class UpstreamApiTest {

    private final SettableClock clock = SettableClock.at(1_763_780_000_000L);
    private final Fleet fleet = new Fleet(clock);
    private final UpstreamApi api = new UpstreamApi(fleet, 0, 0, Duration.ZERO);
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

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
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
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
    void refusedOrdersAreAnsweredTheirStatusWhileEveryOtherOrderIsAnsweredUntilTheRefusalEnds() throws Exception {
        fleet.start("o-1");
        fleet.start("o-2");
        api.refuse(Set.of("o-1"), 500);

        assertThat(get("/orders/o-1/status").statusCode()).isEqualTo(500);
        assertThat(get("/orders/o-2/status").statusCode()).isEqualTo(200);

        api.refuse(Set.of(), 500);
        assertThat(get("/orders/o-1/status").statusCode()).isEqualTo(200);
        assertThat(api.requests("o-1")).isEqualTo(2);
        assertThat(fleet.pullsServed("o-1")).isEqualTo(1);
    }

    @Test
    void addedLatencyDelaysEveryAnswerWithoutQueueingConcurrentRequests() {
        fleet.start("o-1");
        api.latency(Duration.ofMillis(800));
        int requests = 16; // four times the handler threads: sleeping handlers would take over 3 s

        long started = System.nanoTime();
        List<CompletableFuture<HttpResponse<byte[]>>> answers = IntStream.range(0, requests)
                .mapToObj(i -> http.sendAsync(
                        HttpRequest.newBuilder(uri("/orders/o-1/status")).build(),
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
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not started");
    }

    @Test
    void faultsAreValidated() {
        assertThatThrownBy(() -> api.errorRate(1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("errorRate must be between 0 and 1, got 1.5");
        assertThatThrownBy(() -> api.latency(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latency must be zero or positive");
    }

    @Test
    void theRootAnswersSoThatAClientCanTellTheApiIsServedThere() throws Exception {
        assertThat(get("/").statusCode()).isEqualTo(200);
    }

    @Test
    void injectedFaultsAnswerUnknownOrdersMalformedAndOversizedBodies() throws Exception {
        fleet.start("o-1");

        api.faults(FaultSettings.none().withNotFoundRate(1));
        assertThat(get("/orders/o-1/status").statusCode()).isEqualTo(404);
        api.faults(FaultSettings.none().withMalformedRate(1));
        HttpResponse<byte[]> malformed = get("/orders/o-1/status");
        assertThat(malformed.statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> JsonCodec.STATUS_PUSH.decode(malformed.body()))
                .hasMessageStartingWith("not a valid StatusPush");
        api.faults(FaultSettings.none().withOversizedRate(1));
        HttpResponse<byte[]> oversized = get("/orders/o-1/status");
        assertThat(oversized.body()).hasSize(FaultSettings.OVERSIZED_BYTES);
        assertThat(JsonCodec.STATUS_PUSH.decode(oversized.body()).orderId()).isEqualTo("o-1");
        assertThat(api.requests("o-1")).isEqualTo(3);
        assertThat(fleet.pullsServed("o-1")).isZero();
    }

    @Test
    void anErrorOutageAnswers503UntilItEnds() throws Exception {
        fleet.start("o-1");
        api.outage(Outage.of(Duration.ofMillis(500), Outage.Kind.ERRORS));

        assertThat(get("/orders/o-1/status").statusCode()).isEqualTo(503);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> get("/orders/o-1/status").statusCode() == 200);
    }

    @Test
    void aStallOutageHoldsEveryAnswerUntilItEnds() throws Exception {
        fleet.start("o-1");
        long started = System.nanoTime();
        api.outage(Outage.of(Duration.ofMillis(700), Outage.Kind.STALL));

        assertThat(get("/orders/o-1/status").statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(650));
    }

    @Test
    void aRequiredHeaderIsCheckedOnEveryStatusRequest() throws Exception {
        fleet.start("o-1");
        api.requireHeader("Authorization", "Bearer t");

        assertThat(get("/orders/o-1/status").statusCode()).isEqualTo(401);
        assertThat(send(HttpRequest.newBuilder(uri("/orders/o-1/status"))
                                .header("Authorization", "Bearer t")
                                .build())
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void everyStatusRequestIsCountedAndSoIsTheBusiestSecond() throws Exception {
        fleet.start("o-1");
        for (int i = 0; i < 5; i++) {
            get("/orders/o-1/status");
        }

        assertThat(api.totalRequests()).isEqualTo(5);
        // RequestLogTest pins the window; five requests may span more than a second on a busy machine
        assertThat(api.peakRequestsPerSecond()).isBetween(1, 5);
    }

    @Test
    void theBulkPathIsServedOnlyOnceAskedAndAnswersEveryOrderItKnowsCountingEachAsARequest() throws Exception {
        fleet.start("b-1");
        fleet.start("b \"2\"");
        fleet.start("left-out");
        String ask = "{\"orderIds\":[\"b-1\",\"b \\\"2\\\"\",\"unknown\",\"left-out\"]}";
        assertThat(post("/orders/statuses", ask).statusCode())
                .as("off at first")
                .isEqualTo(404);
        assertThat(api.bulkRequests()).isZero();

        api.serveBulk("/orders/statuses");
        api.leaveOutOfBulk(Set.of("left-out"));
        HttpResponse<byte[]> answer = post("/orders/statuses", ask);

        assertThat(answer.statusCode()).isEqualTo(200);
        JsonNode body = new ObjectMapper().readTree(answer.body());
        assertThat(body.get("statuses")).hasSize(2);
        List<StatusPush> statuses = List.of(
                JsonCodec.STATUS_PUSH.decode(
                        body.get("statuses").get(0).toString().getBytes(StandardCharsets.UTF_8)),
                JsonCodec.STATUS_PUSH.decode(
                        body.get("statuses").get(1).toString().getBytes(StandardCharsets.UTF_8)));
        assertThat(statuses).extracting(StatusPush::orderId).containsExactly("b-1", "b \"2\"");
        assertThat(body.get("notFound").toString()).isEqualTo("[\"unknown\"]");
        assertThat(api.bulkRequests()).isEqualTo(1);
        assertThat(api.requests("b-1")).isEqualTo(1);
        assertThat(api.requests("left-out"))
                .as("asked for, whatever the answer")
                .isEqualTo(1);
        assertThat(api.totalRequests()).isEqualTo(4);
        assertThat(fleet.pullsServed("b-1")).isEqualTo(1);
        assertThat(fleet.pullsServed("left-out")).isZero();
        assertThat(get("/orders/statuses").statusCode())
                .as("GET on the bulk path")
                .isEqualTo(405);
        assertThat(post("/orders/statuses", "[]").statusCode()).isEqualTo(400);
    }

    @Test
    void aBulkRequestMeetsTheOutageAsAWhole() throws Exception {
        fleet.start("o-1");
        api.serveBulk("/bulk");
        api.outage(Outage.of(Duration.ofSeconds(30), Outage.Kind.ERRORS));

        assertThat(post("/bulk", "{\"orderIds\":[\"o-1\"]}").statusCode()).isEqualTo(503);
        assertThat(api.requests("o-1")).isEqualTo(1);
    }

    private HttpResponse<byte[]> post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    private HttpResponse<byte[]> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(10))
                .build());
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private URI uri(String path) {
        return URI.create(api.baseUrl() + path);
    }
}
