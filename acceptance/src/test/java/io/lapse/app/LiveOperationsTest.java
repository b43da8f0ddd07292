package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStackExtension;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceName;
import io.lapse.operations.status.PrometheusText;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.yaml.snakeyaml.Yaml;

/**
 * One process running all four services on the devstack with simulated orders, some of which go silent: what the
 * Grafana dashboard and the alert rules query is what it exports, and its status page shows the figures in a real
 * browser.
 */
@Tag("slow")
class LiveOperationsTest {

    private static final int ORDERS = 30;
    private static final int SILENT = 5;
    private static final Path DOCKER = Path.of("..", "docker");
    /** Series Prometheus makes itself for every target. */
    private static final Set<String> SCRAPE_SERIES = Set.of("up");

    private static final String DEPLOYMENT = "ops-test";

    @RegisterExtension
    static final DevStackExtension stack = DevStackExtension.kafkaAndRedis();

    private static UpstreamSimulator simulator;
    private static LapseRuntime lapse;
    private static ManagementClient management;

    @BeforeAll
    static void startAPipelineWithSilentOrders() throws Exception {
        LapseConfig config = LapseConfig.load(null, Map.of())
                .with(Map.of(
                        "kafka.bootstrap.servers",
                        stack.bootstrapServers(),
                        "redis.uri",
                        stack.redisUri(),
                        "timer.ttl",
                        "2s",
                        "topics.partitions",
                        "2",
                        "management.address",
                        "127.0.0.1",
                        "management.port",
                        "0",
                        "compensator.scan-interval",
                        "2s",
                        "compensator.state-dir",
                        Files.createTempDirectory("ops-streams").toString(),
                        "management.deployment",
                        DEPLOYMENT));
        simulator = new UpstreamSimulator(
                SimulatorSettings.manual(Duration.ofSeconds(1)),
                new KafkaClients(config.kafka()),
                config.topics().push(),
                Clock.systemUTC());
        simulator.start();
        config = config.with(Map.of("upstream.base-url", simulator.baseUrl()));
        lapse = new LapseRuntime(config, Clock.systemUTC()).start(ServiceName.ALL);
        management = new ManagementClient(lapse.managementPort());

        List<String> orders = simulator.fleet().startMany(ORDERS, "ops-");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaClients(config.kafka()).producer("ops-poison", Map.of())) {
            producer.send(new ProducerRecord<>(
                            config.topics().push(),
                            "poison".getBytes(StandardCharsets.UTF_8),
                            "{\"orderId\":".getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS);
        }
        await().atMost(Duration.ofSeconds(60))
                .until(() -> status().path("timers").path("watched").asLong() == ORDERS);
        orders.subList(0, SILENT).forEach(simulator.fleet()::silence);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> status().path("pulls").path("ok").asLong() >= SILENT
                        && status().path("deadLetters").asLong() == 1);
    }

    @AfterAll
    static void stopEverything() {
        lapse.close();
        simulator.close();
    }

    private static JsonNode status() {
        return management.json("/status.json").path("process");
    }

    @Test
    void everyMetricTheDashboardAndTheAlertsQueryIsExported() throws Exception {
        Set<String> queried = new TreeSet<>();
        for (String expr : dashboardQueries()) {
            queried.addAll(PromQl.metricNames(expr));
        }
        for (String expr : alertQueries()) {
            queried.addAll(PromQl.metricNames(expr));
        }
        queried.removeAll(SCRAPE_SERIES);
        // one series per silent cohort, none while no cohort is silent (as in this deployment, which names no
        // fleet.cohort-field); the alert's promtool case covers the rule that reads it
        queried.remove("lapse_fleet_cohort_silent_orders");
        assertThat(queried)
                .contains(
                        "lapse_timers_watched",
                        "lapse_consumer_lag_records",
                        "lapse_timer_fire_lateness_seconds_bucket",
                        "lapse_puller_circuit_open");

        // consumer lag appears once a group has committed and the lag was measured (every 10 s)
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() ->
                        assertThat(exported(management.get("/metrics").body())).containsAll(queried));
    }

    /** What lets alerts and dashboards work with any scrape configuration, without relabelling. */
    @Test
    void everySampleNamesItsDeploymentAndTheServiceThatReportsIt() throws Exception {
        List<PrometheusText.Sample> samples =
                PrometheusText.parse(management.get("/metrics").body());

        assertThat(samples)
                .hasSizeGreaterThan(50)
                .allSatisfy(sample -> assertThat(sample.labels()).containsEntry("deployment", DEPLOYMENT));
        assertThat(samples)
                .filteredOn(sample -> !sample.name().startsWith("lapse_dlq_records"))
                .allSatisfy(sample -> assertThat(sample.labels()).containsEntry("service", "all"));
        assertThat(samples)
                .as("a dead letter counts for the service that wrote it")
                .filteredOn(sample -> sample.name().equals("lapse_dlq_records_total"))
                .anySatisfy(sample -> assertThat(sample.labels()).containsEntry("service", "ingest"));
    }

    @Test
    void theStatusPageShowsTheFiguresInAHeadlessBrowser() throws Exception {
        String dom = HeadlessChromium.dumpDom(management.url("/"));

        assertThat(figure(dom, "ready")).isEqualTo("UP");
        assertThat(figure(dom, "live")).isEqualTo("UP");
        assertThat(figure(dom, "watched")).isEqualTo(Integer.toString(ORDERS));
        assertThat(figure(dom, "overdue")).isEqualTo("0");
        assertThat(figure(dom, "dead-letters")).isEqualTo("1");
        assertThat(figure(dom, "lateness-p50")).matches("[0-9.]+ m?s");
        assertThat(figure(dom, "lateness-p99")).matches("[0-9.]+ m?s");
        assertThat(Long.parseLong(figure(dom, "lateness-count"))).isGreaterThanOrEqualTo(SILENT);
        assertThat(rows(dom, "lateness-histogram"))
                .hasSize(9)
                .anySatisfy(row -> assertThat(row).startsWith("≤ 5.0 ms"));
        assertThat(rows(dom, "expiries")).anySatisfy(row -> assertThat(row).startsWith("timer"));
        assertThat(rows(dom, "pulls")).anySatisfy(row -> assertThat(row).startsWith("ok"));
        assertThat(rows(dom, "watermarks")).anySatisfy(row -> assertThat(row).startsWith("charging.status.push/0"));
    }

    /** The text of the element with this id in the DOM Chromium dumped after the page's script ran. */
    private static String figure(String dom, String id) {
        Matcher m = Pattern.compile("id=\"" + id + "\"[^>]*>([^<]*)<").matcher(dom);
        assertThat(m.find()).as("element #%s in %s", id, dom).isTrue();
        return m.group(1).trim();
    }

    /** Each row of the table's body as its cells' text joined by spaces. */
    private static List<String> rows(String dom, String tableId) {
        int table = dom.indexOf("id=\"" + tableId + "\"");
        assertThat(table).as("table #%s", tableId).isNotNegative();
        String body = dom.substring(dom.indexOf("<tbody>", table), dom.indexOf("</tbody>", table));
        List<String> rows = new ArrayList<>();
        for (String row : body.split("<tr>")) {
            String text = row.replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").trim();
            if (!text.isEmpty()) {
                rows.add(text);
            }
        }
        return rows;
    }

    private static List<String> dashboardQueries() throws Exception {
        JsonNode dashboard = new ObjectMapper()
                .readTree(DOCKER.resolve("grafana/dashboards/lapse.json").toFile());
        List<String> queries = new ArrayList<>();
        dashboard
                .get("panels")
                .forEach(panel -> panel.get("targets")
                        .forEach(t -> queries.add(t.get("expr").asText())));
        assertThat(queries).hasSizeGreaterThanOrEqualTo(12);
        return queries;
    }

    @SuppressWarnings("unchecked")
    private static List<String> alertQueries() throws Exception {
        Map<String, Object> rules = new Yaml().load(Files.readString(DOCKER.resolve("prometheus/alerts.yml")));
        List<String> queries = new ArrayList<>();
        for (Object group : (List<Object>) rules.get("groups")) {
            for (Object rule : (List<Object>) ((Map<String, Object>) group).get("rules")) {
                queries.add((String) ((Map<String, Object>) rule).get("expr"));
            }
        }
        assertThat(queries).hasSizeGreaterThanOrEqualTo(6);
        return queries;
    }

    /** Names of the series in a Prometheus text exposition. */
    private static Set<String> exported(String exposition) {
        return PrometheusText.parse(exposition).stream()
                .map(PrometheusText.Sample::name)
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
