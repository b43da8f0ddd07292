package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.ConfigSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * What can be checked of docker/ without Docker: the compose file runs the image the build writes, with real
 * configuration keys and health checks; Prometheus scrapes every service without relabelling, its rules are valid,
 * keep deployments apart and route through a valid Alertmanager example; the dashboard lets its user pick the data
 * source and the deployment.
 */
@Tag("slow")
class DeploymentFilesTest {

    private static final Path ROOT = Path.of("..");
    private static final Path DOCKER = ROOT.resolve("docker");
    private static final Path IMAGE = ROOT.resolve("image");
    /** An aggregation and its by clause (every rule writes them before the aggregated expression). */
    private static final Pattern AGGREGATION = Pattern.compile(
            "\\b(sum|min|max|avg|count|group|topk|bottomk|quantile|stddev|stdvar)\\s*(by|without)?\\s*(\\([^()]*\\))?\\s*\\(");

    private static final List<String> SERVICES = List.of("ingest", "timer", "puller", "compensator");

    @Test
    void composeRunsEachServiceAsItsOwnContainerOfTheProductionImageWithAHealthCheck() throws IOException {
        Map<String, Map<String, Object>> services = composeServices();

        for (String name : SERVICES) {
            Map<String, Object> service = services.get(name);
            assertThat(service).as("service %s", name).isNotNull();
            assertThat(service.get("image")).isEqualTo("lapse:latest");
            assertThat(service)
                    .as("the image the build writes, not one compose builds")
                    .doesNotContainKey("build");
            assertThat(service.get("command")).isEqualTo(List.of(name));
            assertThat(list(map(service.get("healthcheck")).get("test")))
                    .containsExactly("CMD", "/opt/lapse/healthcheck", "live");
            assertThat(service).doesNotContainKey("profiles");
        }
        assertThat(Files.isExecutable(IMAGE.resolve("src/main/jib/opt/lapse/healthcheck")))
                .as("the image's /opt/lapse/healthcheck is executable")
                .isTrue();
        assertThat(Files.readString(IMAGE.resolve("pom.xml")))
                .as("the image module tags the image compose runs")
                .contains("<image>lapse:${project.version}</image>", "<tag>latest</tag>");
    }

    @Test
    void composeRunsKafkaInKRaftModeAndRedisWithAppendOnlyFile() throws IOException {
        Map<String, Map<String, Object>> services = composeServices();

        assertThat((String) services.get("kafka").get("image")).startsWith("apache/kafka:");
        assertThat(map(services.get("kafka").get("environment")))
                .containsEntry("KAFKA_PROCESS_ROLES", "broker,controller");
        assertThat((String) services.get("redis").get("image")).startsWith("redis:");
        assertThat(list(services.get("redis").get("command"))).containsSequence("--appendonly", "yes");
        for (String infrastructure : List.of("kafka", "redis", "prometheus", "alertmanager", "grafana")) {
            assertThat(services.get(infrastructure)).as(infrastructure).containsKey("healthcheck");
        }
        assertThat(services.get("simulator").get("profiles")).isEqualTo(List.of("demo"));
        assertThat(map(services.get("simulator").get("build")).get("target")).isEqualTo("lapse-dev");
    }

    @Test
    void hostToolsReachKafkaAndRedisOnLocalhostAndServicesHaveTimeToCloseCleanly() throws IOException {
        Map<String, Map<String, Object>> services = composeServices();
        Map<String, Object> kafka = map(services.get("kafka").get("environment"));

        assertThat((String) kafka.get("KAFKA_ADVERTISED_LISTENERS")).contains("EXTERNAL://localhost:29092");
        assertThat((String) kafka.get("KAFKA_LISTENERS")).contains("EXTERNAL://:29092");
        assertThat((String) kafka.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP")).contains("EXTERNAL:PLAINTEXT");
        assertThat(list(services.get("kafka").get("ports"))).containsExactly("127.0.0.1:29092:29092");
        assertThat(list(services.get("redis").get("ports"))).containsExactly("127.0.0.1:6379:6379");
        for (String name : SERVICES) {
            assertThat(seconds((String) services.get(name).get("stop_grace_period")))
                    .as("%s's stop_grace_period covers the timer's 30 s wait for acknowledgements", name)
                    .isGreaterThan(30);
        }
        assertThat(seconds((String) services.get("compensator").get("stop_grace_period")))
                .as("the compensator closes its streams in up to 30 s, then the rest")
                .isGreaterThanOrEqualTo(60);
    }

    private static long seconds(String composeDuration) {
        assertThat(composeDuration).matches("\\d+s");
        return Long.parseLong(composeDuration.substring(0, composeDuration.length() - 1));
    }

    @Test
    void everyLapseVariableInComposeIsAConfigurationKey() throws IOException {
        Set<String> known = ConfigKeys.all().stream().map(ConfigKey::envName).collect(Collectors.toSet());
        List<String> variables = new ArrayList<>();
        composeServices()
                .values()
                .forEach(service -> map(service.getOrDefault("environment", Map.of())).keySet().stream()
                        .filter(name -> name.startsWith("LAPSE_"))
                        .forEach(variables::add));

        assertThat(variables)
                .isNotEmpty()
                .allSatisfy(name -> assertThat(known.contains(name)
                                || name.startsWith("LAPSE_KAFKA_")
                                || ConfigSource.OTHER_VARIABLES.contains(name))
                        .as(
                                "%s is a configuration key, a kafka.* property or a variable of the launcher or logging",
                                name)
                        .isTrue());
    }

    @Test
    void theImageShipsTheJarOfTheModuleThatBuildsTheProductionLauncher() throws IOException {
        String module = moduleBuilding("<launcher.jar>lapse</launcher.jar>");
        Map<String, String> stages = dockerfileStages();

        assertThat(Files.readString(IMAGE.resolve("pom.xml")))
                .contains("<argument>${project.basedir}/../" + module + "/target</argument>");
        assertThat(stages)
                .as("the Dockerfile builds the development image only")
                .doesNotContainKey("lapse");
        String devModule = moduleBuildingOrNull("<launcher.jar>lapse-dev</launcher.jar>");
        Assumptions.assumeTrue(
                devModule != null,
                "no module builds lapse-dev.jar yet (the devtools module): "
                        + "the lapse-dev target cannot be checked");
        assertThat(stages.get("lapse-dev")).contains("/src/" + devModule + "/target/lapse-dev.jar");
    }

    @Test
    void prometheusScrapesEveryServiceAndGrafanaIsProvisioned() throws IOException {
        Map<String, Object> prometheus = yaml(DOCKER.resolve("prometheus/prometheus.yml"));
        List<String> names = new ArrayList<>();
        for (Object job : list(prometheus.get("scrape_configs"))) {
            assertThat(map(job)).as("every replica, not one picked by DNS").doesNotContainKey("static_configs");
            for (Object config : list(map(job).get("dns_sd_configs"))) {
                assertThat(map(config)).containsEntry("type", "A").containsEntry("port", 8080);
                list(map(config).get("names")).forEach(n -> names.add((String) n));
            }
            assertThat(map(job))
                    .as("the metrics name their deployment and service themselves")
                    .doesNotContainKeys("relabel_configs", "metric_relabel_configs");
        }
        assertThat(names).containsExactlyInAnyOrderElementsOf(SERVICES);
        assertThat(list(prometheus.get("rule_files"))).containsExactly("/etc/prometheus/alerts.yml");
        assertThat(prometheus.get("alerting").toString()).contains("alertmanager:9093");

        Map<String, Object> datasources = yaml(DOCKER.resolve("grafana/provisioning/datasources/prometheus.yml"));
        assertThat(map(list(datasources.get("datasources")).get(0)))
                .containsEntry("uid", "prometheus")
                .containsEntry("url", "http://prometheus:9090");
        assertThat(DOCKER.resolve("grafana/dashboards/lapse.json")).exists();
    }

    @Test
    void promtoolAcceptsTheAlertRulesAndTheirUnitTestsPass() throws Exception {
        Assumptions.assumeTrue(ToolInstall.ensure("promtool"), ToolInstall.skipMessage("promtool"));

        assertThat(run(DOCKER.resolve("prometheus"), "promtool", "check", "rules", "alerts.yml"))
                .contains("SUCCESS");
        assertThat(run(DOCKER.resolve("prometheus"), "promtool", "test", "rules", "alerts.test.yml"))
                .contains("SUCCESS");
    }

    /** Any Prometheus: no job name, no label only relabelling adds, and no sum of two deployments' figures. */
    @Test
    void noRuleNamesAJobAndEveryAggregationKeepsDeploymentsApart() throws IOException {
        alertRules().forEach((name, rule) -> {
            String expr = (String) rule.get("expr");
            assertThat(expr).as(name).doesNotContainPattern("\\bjob\\s*[=!]").doesNotContain("__");
            Matcher aggregation = AGGREGATION.matcher(expr);
            while (aggregation.find()) {
                assertThat(aggregation.group(2))
                        .as("%s: %s groups by something", name, aggregation.group())
                        .isEqualTo("by");
                assertThat(aggregation.group(3))
                        .as("%s: %s keeps deployments apart", name, aggregation.group())
                        .containsAnyOf("deployment", "instance");
            }
        });
    }

    @Test
    void theAlertmanagerExampleIsValidAndRoutesEverySeverityOfTheRules() throws Exception {
        Path config = DOCKER.resolve("alertmanager/alertmanager.yml");
        Map<String, Object> route = map(yaml(config).get("route"));
        Set<String> severities = new TreeSet<>();
        alertRules()
                .values()
                .forEach(rule -> severities.add((String) map(rule.get("labels")).get("severity")));

        assertThat(severities).containsExactlyInAnyOrder("page", "ticket");
        assertThat(list(route.get("group_by"))).contains("deployment");
        assertThat(list(route.get("routes")))
                .anySatisfy(r -> assertThat(list(map(r).get("matchers"))).containsExactly("severity=\"page\""));
        Assumptions.assumeTrue(ToolInstall.ensure("amtool"), ToolInstall.skipMessage("amtool"));
        assertThat(run(config.getParent(), "amtool", "check-config", "alertmanager.yml"))
                .contains("SUCCESS");
    }

    @Test
    void theDashboardAsksForItsDataSourceAndShowsTheDeploymentPicked() throws IOException {
        JsonNode dashboard = new ObjectMapper()
                .readTree(DOCKER.resolve("grafana/dashboards/lapse.json").toFile());
        List<String> variables = new ArrayList<>();
        dashboard
                .get("templating")
                .get("list")
                .forEach(v -> variables.add(v.get("name").asText()));

        assertThat(dashboard.get("__inputs").get(0).get("pluginId").asText()).isEqualTo("prometheus");
        assertThat(variables).containsExactly("datasource", "deployment", "service", "instance");
        assertThat(dashboard.get("panels")).isNotEmpty().allSatisfy(panel -> {
            assertThat(panel.get("datasource").get("uid").asText()).isEqualTo("${datasource}");
            panel.get("targets").forEach(target -> {
                assertThat(target.get("datasource").get("uid").asText()).isEqualTo("${datasource}");
                Matcher selector = Pattern.compile("\\blapse_[a-z0-9_]+(\\{[^}]*})?")
                        .matcher(target.get("expr").asText());
                while (selector.find()) {
                    assertThat(selector.group()).contains("deployment=\"$deployment\"");
                }
            });
        });
    }

    @Test
    void everyAlertHasAUnitTestThatFiresItAndARunbookSectionThatExists() throws IOException {
        Map<String, Map<String, Object>> rules = alertRules();
        Set<String> firedInTests = new TreeSet<>();
        for (Object test :
                list(yaml(DOCKER.resolve("prometheus/alerts.test.yml")).get("tests"))) {
            for (Object check : list(map(test).get("alert_rule_test"))) {
                if (!list(map(check).get("exp_alerts")).isEmpty()) {
                    firedInTests.add((String) map(check).get("alertname"));
                }
            }
        }
        Set<String> anchors = RunbookAnchors.of(Files.readString(ROOT.resolve("docs/runbook.md")));

        assertThat(firedInTests).containsExactlyInAnyOrderElementsOf(rules.keySet());
        rules.forEach((name, rule) -> {
            String url = (String) map(rule.get("annotations")).get("runbook_url");
            assertThat(url).as("%s's runbook_url", name).startsWith("docs/runbook.md#");
            assertThat(anchors).as("%s's runbook_url %s", name, url).contains(url.substring(url.indexOf('#') + 1));
        });
    }

    private static String run(Path directory, String... command) throws Exception {
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    private static Map<String, Map<String, Object>> alertRules() throws IOException {
        Map<String, Map<String, Object>> rules = new LinkedHashMap<>();
        for (Object group : list(yaml(DOCKER.resolve("prometheus/alerts.yml")).get("groups"))) {
            for (Object rule : list(map(group).get("rules"))) {
                rules.put((String) map(rule).get("alert"), map(rule));
            }
        }
        return rules;
    }

    static Map<String, Map<String, Object>> composeServices() throws IOException {
        Map<String, Map<String, Object>> services = new LinkedHashMap<>();
        map(yaml(DOCKER.resolve("compose.yaml")).get("services"))
                .forEach((name, service) -> services.put(name, map(service)));
        return services;
    }

    private static Map<String, Object> yaml(Path file) throws IOException {
        return new Yaml().load(Files.readString(file));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return (List<Object>) value;
    }

    /** Stage name → its lines, in the Dockerfile's order. */
    private static Map<String, String> dockerfileStages() throws IOException {
        Map<String, String> stages = new LinkedHashMap<>();
        String current = null;
        for (String line : Files.readAllLines(DOCKER.resolve("Dockerfile"))) {
            if (line.startsWith("FROM ")) {
                current = line.substring(line.lastIndexOf(' ') + 1);
                stages.put(current, "");
            }
            if (current != null) {
                stages.merge(current, line + "\n", String::concat);
            }
        }
        return stages;
    }

    private static String moduleBuilding(String marker) throws IOException {
        String module = moduleBuildingOrNull(marker);
        assertThat(module).as("a module whose pom says %s", marker).isNotNull();
        return module;
    }

    private static String moduleBuildingOrNull(String marker) throws IOException {
        try (Stream<Path> poms =
                Files.list(ROOT).map(dir -> dir.resolve("pom.xml")).filter(Files::isRegularFile)) {
            for (Path pom : poms.toList()) {
                if (Files.readString(pom).contains(marker)) {
                    return pom.getParent().getFileName().toString();
                }
            }
        }
        return null;
    }
}
