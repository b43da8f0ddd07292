package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * What can be checked of docker/ without Docker: the compose file names real images, real configuration keys, health
 * checks and the production jar; Prometheus scrapes every service and its rules are valid.
 */
@Tag("slow")
class DeploymentFilesTest {

    private static final Path ROOT = Path.of("..");
    private static final Path DOCKER = ROOT.resolve("docker");
    private static final List<String> SERVICES = List.of("ingest", "timer", "puller", "compensator");

    @Test
    void composeRunsEachServiceAsItsOwnContainerOfTheProductionImageWithAHealthCheck() throws IOException {
        Map<String, Map<String, Object>> services = composeServices();

        for (String name : SERVICES) {
            Map<String, Object> service = services.get(name);
            assertThat(service).as("service %s", name).isNotNull();
            assertThat(service.get("image")).isEqualTo("lapse:latest");
            assertThat(map(service.get("build")).get("target")).isEqualTo("lapse");
            assertThat(service.get("command")).isEqualTo(List.of(name));
            assertThat(list(map(service.get("healthcheck")).get("test")))
                    .containsExactly("CMD", "/opt/lapse/healthcheck", "ready");
            assertThat(service).doesNotContainKey("profiles");
        }
        assertThat(Files.isExecutable(DOCKER.resolve("healthcheck")))
                .as("docker/healthcheck is executable")
                .isTrue();
    }

    @Test
    void composeRunsKafkaInKRaftModeAndRedisWithAppendOnlyFile() throws IOException {
        Map<String, Map<String, Object>> services = composeServices();

        assertThat((String) services.get("kafka").get("image")).startsWith("apache/kafka:");
        assertThat(map(services.get("kafka").get("environment")))
                .containsEntry("KAFKA_PROCESS_ROLES", "broker,controller");
        assertThat((String) services.get("redis").get("image")).startsWith("redis:");
        assertThat(list(services.get("redis").get("command"))).containsSequence("--appendonly", "yes");
        for (String infrastructure : List.of("kafka", "redis", "prometheus", "grafana")) {
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
    void theImageRunsTheJarOfTheModuleThatBuildsTheProductionLauncher() throws IOException {
        String module = moduleBuilding("<launcher.jar>lapse</launcher.jar>");
        Map<String, String> stages = dockerfileStages();

        assertThat(stages.get("lapse")).contains("COPY --from=build /src/" + module + "/target/lapse.jar ");
        assertThat(stages.get("build")).contains("-pl " + module + " ");
        assertThat(stages.get("lapse"))
                .contains(
                        "ENTRYPOINT [\"java\", \"-XX:MaxRAMPercentage=75\", \"-jar\", " + "\"/opt/lapse/lapse.jar\"]");
        assertThat(new ArrayList<>(stages.keySet()))
                .as("the production image is the default (last) target")
                .last()
                .isEqualTo("lapse");
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
            assertThat(list(map(job).get("relabel_configs")))
                    .contains(Map.of("source_labels", List.of("__meta_dns_name"), "target_label", "service"));
        }
        assertThat(names).containsExactlyInAnyOrderElementsOf(SERVICES);
        assertThat(list(prometheus.get("rule_files"))).containsExactly("/etc/prometheus/alerts.yml");

        Map<String, Object> datasources = yaml(DOCKER.resolve("grafana/provisioning/datasources/prometheus.yml"));
        assertThat(map(list(datasources.get("datasources")).get(0)))
                .containsEntry("uid", "prometheus")
                .containsEntry("url", "http://prometheus:9090");
        assertThat(DOCKER.resolve("grafana/dashboards/lapse.json")).exists();
    }

    @Test
    void promtoolAcceptsTheAlertRulesAndTheirUnitTestsPass() throws Exception {
        Assumptions.assumeTrue(ToolInstall.ensure("promtool"), ToolInstall.skipMessage("promtool"));

        assertThat(promtool("check", "rules", "alerts.yml")).contains("SUCCESS");
        assertThat(promtool("test", "rules", "alerts.test.yml")).contains("SUCCESS");
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

    private static String promtool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command)
                .directory(DOCKER.resolve("prometheus").toFile())
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
