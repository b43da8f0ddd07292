package io.lapse.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.config.LapseConfig;
import io.lapse.config.TestRun;
import io.lapse.devstack.DevStackExtension;
import io.lapse.devstack.SelfSignedTls;
import io.lapse.event.JsonCodec;
import io.lapse.event.OrderUpdate;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaClients;
import io.lapse.kafka.TopicProvisioner;
import io.lapse.operations.OnCallRig;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.timers.OrderView;
import io.lapse.store.timers.TimerStore;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The console against a real Kafka and Redis: what it shows of an order, and when it fires one. */
@Tag("slow")
class ConsoleTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "alice-on-call";
    private static final String OPERATOR_TOKEN = "olga-operator-token-0123456789";
    private static final String VIEWER_TOKEN = "victor-viewer-token-0123456789";
    /** The app hands in lapse rebuild; here one that draws a progress line and says what it did. */
    private static final TimerRebuilder REBUILD = (config, out, err) -> {
        err.print("rebuilding shard 1 of 4\r");
        err.flush();
        out.println("lapse rebuild: rebuilt 0 timers on " + config.timer().shards() + " shards");
        return 0;
    };

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.shared();

    private static Map<String, String> settings;
    private static LapseConfig config;
    private static KafkaClients clients;
    private static RedisConnection redis;
    private static TimerStore store;
    private static ConsoleServer console;
    private static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        settings = new HashMap<>(TestRun.settings(
                TestRun.namespace("console"),
                stack.bootstrapServers(),
                stack.redisUri(),
                Map.of("topics.partitions", "2", "timer.shards", "4", "console.port", "0")));
        config = TestRun.config(settings);
        clients = new KafkaClients(config.kafka());
        new TopicProvisioner(clients)
                .ensure(Set.of(
                        config.topics().push(),
                        config.topics().pulled(),
                        config.topics().expired(),
                        config.topics().dlq()));
        redis = RedisConnection.open(config.redis());
        store = TimerStore.of(
                redis, new TimerKeys(config.redis().keyPrefix(), config.timer().shards()), config.timer());
        console = ConsoleServer.start(configFile(Map.of()), List.of(), USER, Duration.ofSeconds(5), REBUILD);
    }

    @AfterAll
    static void stop() {
        console.close();
        console.close(); // idempotent
        redis.close();
    }

    @Test
    void anActionNeedsAReasonAndTheCsrfTokenThenFiresAndIsAudited() throws Exception {
        String order = "console-1";
        store.apply(List.of(OrderUpdate.active(order, System.currentTimeMillis())))
                .join();
        String cookie = csrfCookie();
        String token = cookie.substring(cookie.indexOf('=') + 1);

        HttpResponse<String> noCsrf = post(order, "fire", "{\"reason\":\"stuck charger\"}", cookie, null);
        HttpResponse<String> noReason = post(order, "fire", "{\"reason\":\"  \"}", cookie, token);
        HttpResponse<String> cookieOnly = post(order, "fire", "{\"reason\":\"stuck charger\"}", cookie, "forged");

        assertThat(noCsrf.statusCode()).as(noCsrf.body()).isEqualTo(403);
        assertThat(noReason.statusCode()).as(noReason.body()).isEqualTo(400);
        assertThat(cookieOnly.statusCode()).as(cookieOnly.body()).isEqualTo(403);
        assertThat(view(order).phase()).isEqualTo(OrderView.Phase.ARMED);
        assertThat(expiriesOf(order)).isEmpty();

        HttpResponse<String> fired = post(order, "fire", "{\"reason\":\"stuck charger\"}", cookie, token);

        assertThat(fired.statusCode()).as(fired.body()).isEqualTo(200);
        assertThat(JSON.readTree(fired.body()).get("outcome").asText()).isEqualTo("fired");
        assertThat(expiriesOf(order))
                .singleElement()
                .satisfies(e -> assertThat(e.source()).isEqualTo(TimerExpired.Source.MANUAL));
        JsonNode audit = JSON.readTree(get("/api/audit").body());
        assertThat(audit).anySatisfy(entry -> {
            assertThat(entry.get("orderId").asText()).isEqualTo(order);
            assertThat(entry.get("action").asText()).isEqualTo("fire");
            assertThat(entry.get("user").asText()).isEqualTo(USER);
            assertThat(entry.get("reason").asText()).isEqualTo("stuck charger");
        });

        HttpResponse<String> inspected = get("/api/orders/" + order);
        assertThat(inspected.statusCode()).as(inspected.body()).isEqualTo(200);
        JsonNode report = JSON.readTree(inspected.body());
        assertThat(report.get("phase").asText()).isEqualTo("FIRED");
        assertThat(report.get("expiriesFound").asInt()).isEqualTo(1);
        assertThat(report.get("expiries").get(0).get("event").get("source").asText())
                .isEqualToIgnoringCase("manual");
        assertThat(report.get("byHand").get(0).get("user").asText()).isEqualTo(USER);
    }

    @Test
    void anOrderNobodyKnowsIsAClearErrorAndNotAPage() throws Exception {
        // as the page's encodeURIComponent writes it: in a path, + is a plus
        HttpResponse<String> unknown = get("/api/orders/no%20such%2Forder+1");

        assertThat(unknown.statusCode()).isEqualTo(422);
        assertThat(JSON.readTree(unknown.body()).get("error").asText()).startsWith("unknown order 'no such/order+1'");
    }

    @Test
    void theOverviewIsWhatLapseStatusSays() throws Exception {
        HttpResponse<String> status = get("/api/status");

        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        JsonNode report = JSON.readTree(status.body());
        assertThat(report.has("watched")).isTrue();
        assertThat(report.get("consumerLag"))
                .extracting(g -> g.get("role").asText())
                .contains("ingest", "puller");
        assertThat(report.get("metrics").has("secondsToDrain")).isTrue();
        assertThat(report.get("problems").isArray()).isTrue();
    }

    @Test
    void aTimeTheDeadLettersCannotReadIsBadUsage() throws Exception {
        HttpResponse<String> badSince = get("/api/dead-letters?since=yesterday");
        HttpResponse<String> badUntil = get("/api/dead-letters?until=tomorrow");

        assertThat(badSince.statusCode()).isEqualTo(422);
        assertThat(JSON.readTree(badSince.body()).get("error").asText()).startsWith("--since: cannot read 'yesterday'");
        assertThat(badUntil.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(badUntil.body()).get("error").asText()).startsWith("until: cannot read 'tomorrow'");
    }

    @Test
    void aRedriveAndAReplayNeedTheCsrfTokenAndAReasonButTheirDryRunsNoReason() throws Exception {
        String cookie = csrfCookie();
        String token = cookie.substring(cookie.indexOf('=') + 1);
        String letter = config.topics().dlq() + "/0@999";
        String redrive = "/api/dead-letters/redrive";
        String replay = "/api/replay";
        String range = "\"topic\":\"" + config.topics().expired() + "\",\"from\":\"-1h\"";

        HttpResponse<String> noCsrf =
                postTo(redrive, "{\"letters\":[\"" + letter + "\"],\"dryRun\":true}", cookie, null);
        HttpResponse<String> noReason = postTo(redrive, "{\"letters\":[\"" + letter + "\"]}", cookie, token);
        HttpResponse<String> anOption = postTo(redrive, "{\"letters\":[\"--dry-run\"],\"dryRun\":true}", cookie, token);
        HttpResponse<String> replayNoReason = postTo(replay, "{" + range + "}", cookie, token);

        assertThat(noCsrf.statusCode()).as(noCsrf.body()).isEqualTo(403);
        assertThat(noReason.statusCode()).as(noReason.body()).isEqualTo(400);
        assertThat(anOption.statusCode()).as(anOption.body()).isEqualTo(400);
        assertThat(JSON.readTree(anOption.body()).get("error").asText())
                .isEqualTo("'--dry-run' is not topic/partition@offset");
        assertThat(replayNoReason.statusCode()).as(replayNoReason.body()).isEqualTo(400);

        HttpResponse<String> redriveDryRun =
                postTo(redrive, "{\"letters\":[\"" + letter + "\"],\"dryRun\":true}", cookie, token);
        HttpResponse<String> replayDryRun = postTo(replay, "{" + range + ",\"dryRun\":true}", cookie, token);

        assertThat(redriveDryRun.statusCode()).as(redriveDryRun.body()).isEqualTo(200);
        JsonNode redriven = JSON.readTree(redriveDryRun.body());
        assertThat(redriven.get("dryRun").asBoolean()).isTrue();
        assertThat(redriven.get("selected").asLong())
                .as("no dead letter is at %s", letter)
                .isZero();
        assertThat(replayDryRun.statusCode()).as(replayDryRun.body()).isEqualTo(200);
        JsonNode replayed = JSON.readTree(replayDryRun.body());
        assertThat(replayed.get("dryRun").asBoolean()).isTrue();
        assertThat(replayed.get("perPartition").isObject()).isTrue();
    }

    @Test
    void aReplayRunsInTheBackgroundUntilItsSummaryAndIsAudited() throws Exception {
        String cookie = csrfCookie();
        String token = cookie.substring(cookie.indexOf('=') + 1);
        String range = "\"topic\":\"" + config.topics().push() + "\",\"from\":\"-1h\",\"key\":\"console-none\"";
        String dryRunId = dryRunId(postTo("/api/replay", "{" + range + ",\"dryRun\":true}", cookie, token));

        HttpResponse<String> started = postTo(
                "/api/replay",
                "{" + range + ",\"dryRunId\":\"" + dryRunId + "\",\"reason\":\"after the upstream outage\"}",
                cookie,
                token);

        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        !JSON.readTree(get("/api/replay").body()).get("running").asBoolean());
        JsonNode done = JSON.readTree(get("/api/replay").body());
        assertThat(done.get("replay").asText())
                .as("the window its dry run fixed")
                .matches(Pattern.quote(config.topics().push()) + " from 20\\S+Z to 20\\S+Z key console-none");
        assertThat(done.get("user").asText()).isEqualTo(USER);
        assertThat(done.get("report").get("dryRun").asBoolean()).isFalse();
        assertThat(done.get("report").get("published").asLong()).isZero();
        JsonNode audit = JSON.readTree(get("/api/audit").body());
        assertThat(audit).anySatisfy(entry -> {
            assertThat(entry.get("action").asText()).isEqualTo("replay");
            assertThat(entry.get("orderId").asText()).endsWith("key console-none: published 0");
            assertThat(entry.get("user").asText()).isEqualTo(USER);
            assertThat(entry.get("reason").asText()).isEqualTo("after the upstream outage");
        });
    }

    @Test
    void aRedriveOrReplayRunWithoutTheDryRunOfTheSameParametersIsRefusedAndPublishesNothing() throws Exception {
        String cookie = csrfCookie();
        String token = cookie.substring(cookie.indexOf('=') + 1);
        String redrive = "/api/dead-letters/redrive";
        String letters = "\"letters\":[\"" + config.topics().dlq() + "/0@998\"]";
        String otherLetters = "\"letters\":[\"" + config.topics().dlq() + "/0@997\"]";
        String range = "\"topic\":\"" + config.topics().expired() + "\",\"from\":\"-1h\",\"key\":\"console-none\"";
        String otherRange = "\"topic\":\"" + config.topics().expired() + "\",\"from\":\"-2h\",\"key\":\"console-none\"";
        String reason = "\"reason\":\"upstream is back\"";
        String redriveId = dryRunId(postTo(redrive, "{" + letters + ",\"dryRun\":true}", cookie, token));
        String replayId = dryRunId(postTo("/api/replay", "{" + range + ",\"dryRun\":true}", cookie, token));

        HttpResponse<String> redriveWithoutDryRun = postTo(redrive, "{" + letters + "," + reason + "}", cookie, token);
        HttpResponse<String> redriveUnknown =
                postTo(redrive, "{" + letters + "," + reason + ",\"dryRunId\":\"made-up\"}", cookie, token);
        HttpResponse<String> redriveOther = postTo(
                redrive, "{" + otherLetters + "," + reason + ",\"dryRunId\":\"" + redriveId + "\"}", cookie, token);
        HttpResponse<String> replayWithoutDryRun =
                postTo("/api/replay", "{" + range + "," + reason + "}", cookie, token);
        HttpResponse<String> replayOther = postTo(
                "/api/replay", "{" + otherRange + "," + reason + ",\"dryRunId\":\"" + replayId + "\"}", cookie, token);

        assertThat(redriveWithoutDryRun.statusCode())
                .as(redriveWithoutDryRun.body())
                .isEqualTo(400);
        assertThat(error(redriveWithoutDryRun)).startsWith("a redrive needs a dry run first");
        assertThat(redriveUnknown.statusCode()).as(redriveUnknown.body()).isEqualTo(409);
        assertThat(error(redriveUnknown))
                .isEqualTo("dry run made-up is unknown, used or older than 15 min: do the dry "
                        + "run of this redrive again");
        assertThat(redriveOther.statusCode()).as(redriveOther.body()).isEqualTo(409);
        assertThat(error(redriveOther)).contains("was of another redrive, with other parameters");
        assertThat(replayWithoutDryRun.statusCode())
                .as(replayWithoutDryRun.body())
                .isEqualTo(400);
        assertThat(error(replayWithoutDryRun)).startsWith("a replay needs a dry run first");
        assertThat(replayOther.statusCode()).as(replayOther.body()).isEqualTo(409);
        assertThat(JSON.readTree(get("/api/audit").body()))
                .as("nothing refused is audited")
                .noneSatisfy(entry -> assertThat(entry.get("reason").asText()).isEqualTo("upstream is back"));

        HttpResponse<String> redriven =
                postTo(redrive, "{" + letters + "," + reason + ",\"dryRunId\":\"" + redriveId + "\"}", cookie, token);
        HttpResponse<String> again =
                postTo(redrive, "{" + letters + "," + reason + ",\"dryRunId\":\"" + redriveId + "\"}", cookie, token);

        assertThat(redriven.statusCode()).as(redriven.body()).isEqualTo(200);
        assertThat(again.statusCode())
                .as("a dry run is good for one run: %s", again.body())
                .isEqualTo(409);
    }

    @Test
    void aRebuildNeedsAReasonRunsInTheBackgroundUntilItsSummaryAndIsAudited() throws Exception {
        String cookie = csrfCookie();
        String token = cookie.substring(cookie.indexOf('=') + 1);

        HttpResponse<String> noReason = postTo("/api/rebuild", "{}", cookie, token);
        HttpResponse<String> noCsrf = postTo("/api/rebuild", "{\"reason\":\"Redis lost its data\"}", cookie, null);

        assertThat(noReason.statusCode()).as(noReason.body()).isEqualTo(400);
        assertThat(noCsrf.statusCode()).as(noCsrf.body()).isEqualTo(403);

        HttpResponse<String> started = postTo("/api/rebuild", "{\"reason\":\"Redis lost its data\"}", cookie, token);

        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !JSON.readTree(get("/api/rebuild").body())
                        .get("running")
                        .asBoolean());
        JsonNode done = JSON.readTree(get("/api/rebuild").body());
        assertThat(done.get("exit").asInt()).isZero();
        assertThat(done.get("summary").asText()).isEqualTo("lapse rebuild: rebuilt 0 timers on 4 shards");
        assertThat(done.get("progress").asText()).isEqualTo("rebuilding shard 1 of 4");
        assertThat(JSON.readTree(get("/api/audit").body())).anySatisfy(entry -> {
            assertThat(entry.get("action").asText()).isEqualTo("rebuild");
            assertThat(entry.get("user").asText()).isEqualTo(USER);
            assertThat(entry.get("reason").asText()).isEqualTo("Redis lost its data");
        });
    }

    @Test
    void theOverviewsHistoryIsServedForItsCharts() throws Exception {
        HttpResponse<String> lateness = get("/api/lateness");
        HttpResponse<String> deadLetters = get("/api/dead-letters/over-time");

        assertThat(lateness.statusCode()).as(lateness.body()).isEqualTo(200);
        assertThat(JSON.readTree(lateness.body()).get("intervalMillis").asLong())
                .isEqualTo(10_000);
        assertThat(JSON.readTree(lateness.body()).get("points").isArray()).isTrue();
        assertThat(deadLetters.statusCode()).as(deadLetters.body()).isEqualTo(200);
        JsonNode chart = JSON.readTree(deadLetters.body());
        assertThat(chart.get("bucketMillis").asLong()).isEqualTo(300_000);
        assertThat(chart.get("reasons").isObject()).isTrue();
    }

    @Test
    void aRequestFromAnotherOriginCannotAct() throws Exception {
        String cookie = csrfCookie();
        String token = cookie.substring(cookie.indexOf('=') + 1);
        HttpResponse<String> foreign = http.send(
                HttpRequest.newBuilder(console.url().resolve("/api/orders/x/cancel"))
                        .header("Cookie", cookie)
                        .header("X-Lapse-Csrf", token)
                        .header("Origin", "http://evil.example")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"reason\":\"r\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(foreign.statusCode()).isEqualTo(403);
    }

    @Test
    void aPostRefusedBeforeItsBodyArrivedLeavesItsConnectionToTheNextRequest() throws Exception {
        String body = "{\"reason\":\"stuck charger\"}";
        URI url = console.url();
        String host = "Host: " + url.getAuthority() + "\r\n";
        try (Socket socket = new Socket(url.getHost(), url.getPort())) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write(("POST /api/orders/raw-client/fire HTTP/1.1\r\n" + host
                            + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // the guard refuses on the headers alone (no CSRF token); an answer now, without Connection: close, and
            // the body would reach a closed connection, so would the next request
            socket.setSoTimeout(1_000);
            assertThatThrownBy(() -> statusOfNextAnswer(in))
                    .as("answered before the body arrived")
                    .isInstanceOf(SocketTimeoutException.class);
            socket.setSoTimeout(30_000);
            out.write(body.getBytes(StandardCharsets.US_ASCII));
            out.write(("GET /api/session HTTP/1.1\r\n" + host + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();

            assertThat(statusOfNextAnswer(in)).isEqualTo(403);
            assertThat(statusOfNextAnswer(in)).isEqualTo(200);
        }
    }

    /** Reads one HTTP/1.1 answer with a Content-Length from the stream: its status; -1 when the connection ended. */
    private static int statusOfNextAnswer(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) {
            return -1;
        }
        int length = 0;
        for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
            if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(
                        header.substring("content-length:".length()).strip());
            }
        }
        in.readNBytes(length);
        return Integer.parseInt(statusLine.split(" ")[1]);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return line.isEmpty() ? null : line.toString();
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Test
    void withATokenFileEveryReadNeedsTheBearerToken() throws Exception {
        Path tokenFile = Files.createTempFile("console-token", ".txt");
        Files.writeString(tokenFile, "s3cret-token\n");
        try (ConsoleServer guarded = ConsoleServer.start(
                configFile(Map.of("console.auth-token-file", tokenFile.toString())),
                List.of(),
                USER,
                Duration.ofSeconds(5),
                REBUILD)) {
            URI audit = guarded.url().resolve("/api/audit");
            HttpResponse<String> without =
                    http.send(HttpRequest.newBuilder(audit).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> wrong = http.send(
                    HttpRequest.newBuilder(audit)
                            .header("Authorization", "Bearer guess")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> with = http.send(
                    HttpRequest.newBuilder(audit)
                            .header("Authorization", "Bearer s3cret-token")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(without.statusCode()).isEqualTo(401);
            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(with.statusCode()).as(with.body()).isEqualTo(200);
        }
    }

    @Test
    void aViewerReadsButItsActionIsRefusedEvenSentDirectlyAndAnOperatorsIsAuditedUnderTheTokensUser() throws Exception {
        String order = "console-roles";
        store.apply(List.of(OrderUpdate.active(order, System.currentTimeMillis())))
                .join();
        try (ConsoleServer team = ConsoleServer.start(
                configFile(Map.of("console.users-file", usersFile().toString())),
                List.of(),
                null,
                Duration.ofSeconds(5),
                REBUILD)) {
            Client viewer = new Client(team.url(), VIEWER_TOKEN);
            Client operator = new Client(team.url(), OPERATOR_TOKEN);
            Client nobody = new Client(team.url(), null);

            JsonNode viewerSession = JSON.readTree(viewer.get("/api/session").body());
            HttpResponse<String> viewerReads = viewer.get("/api/orders/" + order);
            HttpResponse<String> viewerFires = viewer.post("/api/orders/" + order + "/fire", "{\"reason\":\"r\"}");
            HttpResponse<String> viewerDryRun = viewer.post(
                    "/api/replay",
                    "{\"topic\":\"" + config.topics().expired() + "\",\"from\":\"-1h\",\"dryRun\":true}");
            HttpResponse<String> viewerRebuilds = viewer.post("/api/rebuild", "{\"reason\":\"r\"}");

            assertThat(viewerSession.get("user").asText()).isEqualTo("victor");
            assertThat(viewerSession.get("role").asText()).isEqualTo("viewer");
            assertThat(viewerSession.get("mayAct").asBoolean()).isFalse();
            assertThat(viewerReads.statusCode()).as(viewerReads.body()).isEqualTo(200);
            assertThat(viewerFires.statusCode()).as(viewerFires.body()).isEqualTo(403);
            assertThat(error(viewerFires))
                    .isEqualTo("victor is a viewer: only an operator fires, cancels, redrives, replays and rebuilds");
            assertThat(viewerDryRun.statusCode()).as(viewerDryRun.body()).isEqualTo(403);
            assertThat(viewerRebuilds.statusCode()).as(viewerRebuilds.body()).isEqualTo(403);
            assertThat(nobody.get("/api/status").statusCode()).isEqualTo(401);
            assertThat(view(order).phase()).isEqualTo(OrderView.Phase.ARMED);
            assertThat(expiriesOf(order)).isEmpty();

            HttpResponse<String> operatorFires =
                    operator.post("/api/orders/" + order + "/fire", "{\"reason\":\"the viewer asked\"}");

            assertThat(operatorFires.statusCode()).as(operatorFires.body()).isEqualTo(200);
            assertThat(expiriesOf(order)).singleElement();
            assertThat(JSON.readTree(viewer.get("/api/audit").body())).anySatisfy(entry -> {
                assertThat(entry.get("orderId").asText()).isEqualTo(order);
                assertThat(entry.get("user").asText()).isEqualTo("olga");
            });
        }
    }

    @Test
    void aReplayRunsTheWindowItsDryRunFixedNotOneMovedOnSince() throws Exception {
        String topic = "console-window-" + System.nanoTime();
        new TopicProvisioner(clients).ensure(Set.of(topic));
        send(topic, "window-order", "{\"seen\":\"before the dry run\"}");
        Client operator = new Client(console.url(), null);
        String range = "\"topic\":\"" + topic + "\",\"from\":\"-10m\",\"to\":\"now\"";

        HttpResponse<String> dryRun = operator.post("/api/replay", "{" + range + ",\"dryRun\":true}");
        JsonNode looked = JSON.readTree(dryRun.body());
        send(topic, "window-order", "{\"seen\":\"after the dry run\"}");
        HttpResponse<String> run = operator.post(
                "/api/replay",
                "{" + range + ",\"dryRunId\":\"" + looked.get("dryRunId").asText() + "\",\"reason\":\"window\"}");

        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
        assertThat(looked.get("selected").asLong()).isEqualTo(1);
        assertThat(Instant.parse(looked.get("to").asText()))
                .as("the dry run says which window it read")
                .isBefore(Instant.now());
        assertThat(run.statusCode()).as(run.body()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !JSON.readTree(operator.get("/api/replay").body())
                        .get("running")
                        .asBoolean());
        JsonNode report = JSON.readTree(operator.get("/api/replay").body()).get("report");
        assertThat(report.get("published").asLong())
                .as("what the dry run counted, not the record written since: %s", report)
                .isEqualTo(1);
        assertThat(report.get("from").asText()).isEqualTo(looked.get("from").asText());
        assertThat(report.get("to").asText()).isEqualTo(looked.get("to").asText());
    }

    @Test
    void withAKeystoreTheConsoleServesHttpsWithItsCertificateOnly(@TempDir Path dir) throws Exception {
        SelfSignedTls tls = SelfSignedTls.create(dir, "console");
        Map<String, String> https = Map.of(
                "console.users-file", usersFile().toString(),
                "console.tls.keystore.path", tls.keystore().toString(),
                "console.tls.keystore.password", tls.password());
        try (ConsoleServer secure =
                ConsoleServer.start(configFile(https), List.of(), null, Duration.ofSeconds(5), REBUILD)) {
            HttpClient trusting =
                    HttpClient.newBuilder().sslContext(trusting(tls)).build();

            HttpResponse<String> page =
                    trusting.send(HttpRequest.newBuilder(secure.url()).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> session = trusting.send(
                    HttpRequest.newBuilder(secure.url().resolve("/api/session"))
                            .header("Authorization", "Bearer " + OPERATOR_TOKEN)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(secure.url().getScheme()).isEqualTo("https");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Set-Cookie"))
                    .as("the CSRF cookie goes over https only")
                    .hasValueSatisfying(cookie -> assertThat(cookie).endsWith("; Secure"));
            assertThat(JSON.readTree(session.body()).get("user").asText()).isEqualTo("olga");
            URI plain = URI.create("http://127.0.0.1:" + secure.port() + "/api/session");
            assertThatThrownBy(() ->
                            http.send(HttpRequest.newBuilder(plain).build(), HttpResponse.BodyHandlers.ofString()))
                    .as("plain http")
                    .isInstanceOf(IOException.class);
            assertThatThrownBy(() -> http.send(
                            HttpRequest.newBuilder(secure.url()).build(), HttpResponse.BodyHandlers.ofString()))
                    .as("a client that does not trust the certificate")
                    .isInstanceOf(SSLHandshakeException.class);
        }
        Map<String, String> wrongPassword = new HashMap<>(https);
        wrongPassword.put("console.tls.keystore.password", "wrong");
        assertThatThrownBy(() ->
                        ConsoleServer.start(configFile(wrongPassword), List.of(), null, Duration.ofSeconds(5), REBUILD))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("console.tls.keystore.path: cannot read " + tls.keystore()
                        + " as a PKCS12 keystore with console.tls.keystore.password")
                .hasMessageNotContaining(tls.password());
    }

    /** Loads the page as a browser would, and returns the CSRF cookie it came with ("name=value"). */
    private static String csrfCookie() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(csp -> assertThat(csp).contains("script-src 'self'"));
        String setCookie = page.headers().firstValue("Set-Cookie").orElseThrow();
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    /** The id a dry run answered with, which the run must name. */
    private static String dryRunId(HttpResponse<String> dryRun) throws Exception {
        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
        return JSON.readTree(dryRun.body()).get("dryRunId").asText();
    }

    private static String error(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body()).get("error").asText();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(console.url().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String order, String action, String body, String cookie, String csrf)
            throws Exception {
        return postTo("/api/orders/" + order + "/" + action, body, cookie, csrf);
    }

    private static HttpResponse<String> postTo(String path, String body, String cookie, String csrf) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(console.url().resolve(path))
                .header("Content-Type", "application/json")
                .header("Cookie", cookie)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (csrf != null) {
            request.header("X-Lapse-Csrf", csrf);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Olga operates, Victor views. */
    private static Path usersFile() throws Exception {
        Path file = Files.createTempFile("console-users", ".txt");
        return Files.writeString(file, "olga operator " + OPERATOR_TOKEN + "\nvictor viewer " + VIEWER_TOKEN + "\n");
    }

    private static SSLContext trusting(SelfSignedTls tls) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.truststore())) {
            trust.load(in, tls.password().toCharArray());
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }

    private static void send(String topic, String key, String value) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = clients.producer("console-test", Map.of())) {
            producer.send(new ProducerRecord<>(
                            topic, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    /** A user of a console, as its page is: the token (null for none), the CSRF cookie the page came with. */
    private static final class Client {

        private final URI base;
        private final String token;
        // connections of its own: a server of an earlier test may have had this port, and the JDK client retries
        // a GET on a pooled connection that server closed, but not a POST
        private final HttpClient connections = HttpClient.newHttpClient();
        private String cookie;

        Client(URI base, String token) {
            this.base = base;
            this.token = token;
        }

        HttpResponse<String> get(String path) throws Exception {
            return connections.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> post(String path, String body) throws Exception {
            if (cookie == null) {
                String setCookie = get("/").headers().firstValue("Set-Cookie").orElseThrow();
                cookie = setCookie.substring(0, setCookie.indexOf(';'));
            }
            return connections.send(
                    request(path)
                            .header("Content-Type", "application/json")
                            .header("Cookie", cookie)
                            .header("X-Lapse-Csrf", cookie.substring(cookie.indexOf('=') + 1))
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        private HttpRequest.Builder request(String path) {
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path));
            return token == null ? request : request.header("Authorization", "Bearer " + token);
        }
    }

    private static OrderView view(String order) {
        return store.inspect(List.of(order)).join().get(order);
    }

    private static List<TimerExpired> expiriesOf(String order) {
        String topic = config.topics().expired();
        List<TimerExpired> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = clients.consumer("console-test", "console-test", Map.of())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    TimerExpired expiry = JsonCodec.TIMER_EXPIRED.decode(record.value());
                    if (expiry.orderId().equals(order)) {
                        found.add(expiry);
                    }
                }
            }
        }
        return found;
    }

    private static Path configFile(Map<String, String> overrides) throws Exception {
        return OnCallRig.configFile(settings, overrides);
    }
}
