package io.lapse.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.operations.RigSettings;
import io.lapse.store.fleet.CohortSilences;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One operator's orders fall silent while the others push on, as a running ingest and timer see it: the console's
 * overview names the cohort as lapse status does, and lists its orders, a page at a time, each with its timer (fired:
 * nothing pushed it since) and its expiries since the silence began.
 */
@ExtendWith(RigPerClass.class)
@RigSettings({
    "fleet.cohort-field=operatorId",
    "fleet.window=2s",
    "fleet.baseline=15s",
    "fleet.cohort-min-orders=5",
    "topics.partitions=2",
    "console.port=0"
})
@Tag("slow")
class ConsoleCohortTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> OPERATORS = List.of("north", "south", "east");
    private static final int ORDERS_PER_OPERATOR = 8;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Map<String, String> TIMER_TEXT_BY_PHASE = Map.of(
            "FIRED", "fired, attempt \\d+; next expiry due .*",
            "LEASED", "being fired: attempt \\d+, lease ends .*");

    private static final Set<String> quiet = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean pushing = new AtomicBoolean(true);
    private static final HttpClient http = HttpClient.newHttpClient();
    private static OnCallRig rig;
    private static Thread pusher;
    private static ConsoleServer console;

    @BeforeAll
    static void southFallsSilentWhileTheOthersPush(OnCallRig given) throws Exception {
        rig = given;
        rig.startIngest();
        rig.startTimer();
        String metrics = rig.metricsUrl();
        pusher = new Thread(ConsoleCohortTest::pushEveryOrderFourTimesASecondButTheQuietOperators, "cohort-pusher");
        pusher.start();
        await().atMost(WAIT)
                .alias("every operator is counted long enough to be judged")
                .until(() -> get(URI.create(metrics))
                        .body()
                        .lines()
                        .anyMatch(line -> line.startsWith("lapse_fleet_cohorts_judged") && line.endsWith(" 3.0")));
        quiet.add("south");
        await().atMost(WAIT)
                .alias("ingest decides that south is silent")
                .until(() ->
                        new CohortSilences(rig.redis, rig.keys).current().join().containsKey("south"));
        console = ConsoleServer.start(
                rig.configFile(Map.of()),
                List.of(metrics),
                "alice-on-call",
                Duration.ofSeconds(5),
                (config, out, err) -> 0);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        pushing.set(false);
        if (pusher != null) {
            pusher.join();
        }
        if (console != null) {
            console.close();
        }
    }

    @Test
    void theOverviewNamesTheSilentCohortAsLapseStatusDoes() throws Exception {
        JsonNode status = json("/api/status", 200);

        assertThat(status.get("cohortOf").asText()).isEqualTo("operatorId");
        assertThat(status.get("cohortSilences")).singleElement().satisfies(silence -> {
            assertThat(silence.get("cohort").asText()).isEqualTo("south");
            assertThat(silence.get("silentOrders").asLong()).isPositive();
            assertThat(silence.get("since").asLong()).isLessThanOrEqualTo(System.currentTimeMillis());
        });
        String page = get(console.url().resolve("/")).body();
        assertThat(page).contains("id=\"cohort-silences\"", "id=\"cohort-orders\"");
    }

    @Test
    void theCohortsOrdersArePagedEachWithItsTimerAndItsExpiriesSinceTheSilence() throws Exception {
        // the silent orders fire timer.ttl after their last push, once the others' pushes move the watermark past
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(json("/api/cohorts/south?limit=5", 200)
                                .get("fired")
                                .asLong())
                        .isEqualTo(ORDERS_PER_OPERATOR));

        JsonNode first = json("/api/cohorts/south?limit=5", 200);
        JsonNode rest = json("/api/cohorts/south?offset=5&limit=5", 200);

        assertThat(first.get("silence").get("cohort").asText()).isEqualTo("south");
        assertThat(first.get("found").asInt()).isEqualTo(ORDERS_PER_OPERATOR);
        assertThat(first.get("more").asInt()).isEqualTo(3);
        assertThat(rest.get("more").asInt()).isZero();
        List<JsonNode> orders = new ArrayList<>();
        first.get("orders").forEach(orders::add);
        rest.get("orders").forEach(orders::add);
        assertThat(orders)
                .extracting(o -> o.get("orderId").asText())
                .containsExactly(
                        "south-0", "south-1", "south-2", "south-3", "south-4", "south-5", "south-6", "south-7");
        // with no puller to answer, each order is fired again every lease: a page may catch it between claim and ack
        assertThat(orders).allSatisfy(order -> {
            assertThat(order.get("expiries").asInt()).isPositive();
            assertThat(order.get("pulls").asInt()).as("no puller runs").isZero();
            String phase = order.get("phase").asText();
            assertThat(phase).isIn(TIMER_TEXT_BY_PHASE.keySet());
            assertThat(order.get("timer").asText()).matches(TIMER_TEXT_BY_PHASE.get(phase));
        });
    }

    @Test
    void aCohortThatIsNotSilentIsAClearErrorAndLapseCohortSaysTheSameInWords() throws Exception {
        JsonNode pushingCohort = json("/api/cohorts/north", 422);
        Lapse.Outcome words = rig.lapse("cohort", "south", "--limit", "2");

        assertThat(pushingCohort.get("error").asText())
                .isEqualTo("cohort 'north' is not silent now (lapse status names the silent cohorts)");
        assertThat(words.exit()).as(words.err()).isZero();
        assertThat(words.out())
                .startsWith("cohort south (operatorId) since ")
                .contains("  orders       8 found in the pushes from ", "\n  south-0 (shard ", "\n  south-1 (shard ")
                .contains("  … 6 more (--offset 2 shows them)");
    }

    private static JsonNode json(String path, int status) throws Exception {
        HttpResponse<String> response = get(console.url().resolve(path));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return JSON.readTree(response.body());
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Each order pushes every 250 ms, its operator named in a field of the push, as a non-Java producer writes it. */
    private static void pushEveryOrderFourTimesASecondButTheQuietOperators() {
        while (pushing.get()) {
            long now = System.currentTimeMillis();
            for (String operator : OPERATORS) {
                if (quiet.contains(operator)) {
                    continue;
                }
                for (int i = 0; i < ORDERS_PER_OPERATOR; i++) {
                    String orderId = operator + "-" + i;
                    String push = "{\"orderId\":\"" + orderId + "\",\"operatorId\":\"" + operator
                            + "\",\"status\":\"CHARGING\",\"ts\":" + now + "}";
                    rig.send(rig.config.topics().push(), orderId, push.getBytes(StandardCharsets.UTF_8), now);
                }
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
