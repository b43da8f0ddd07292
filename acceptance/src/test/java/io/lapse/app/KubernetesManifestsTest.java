package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.ConfigSource;
import java.io.IOException;
import java.io.StringReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The Kubernetes manifests in kubernetes/, read as the API server would: each document parsed into fabric8's model of
 * its kind (a wrong type fails to parse, an unknown field is reported), then checked for what running Lapse needs.
 */
class KubernetesManifestsTest {

    private static final Path DIR = Path.of("..", "kubernetes");
    private static final List<String> SERVICES = List.of("ingest", "timer", "puller", "compensator");
    private static final int MANAGEMENT_PORT = 8080;
    private static final long LAPSE_UID = 10001;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<HasMetadata> resources = new ArrayList<>();

    @BeforeAll
    static void parse() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object document : new Yaml().loadAll(Files.readString(file))) {
                    resources.add(parse(file, document));
                }
            }
        }
    }

    /** The kind's model class, or the reason it is not one: an unknown kind or apiVersion, a field no kind has. */
    static HasMetadata parse(Path file, Object document) {
        KubernetesResource resource = JSON.convertValue(document, KubernetesResource.class);
        assertThat(resource)
                .as("%s: a kind and apiVersion of Kubernetes itself", file)
                .isNotInstanceOf(GenericKubernetesResource.class)
                .isInstanceOf(HasMetadata.class);
        List<String> unknown = new ArrayList<>();
        collectUnknownFields(resource, ((HasMetadata) resource).getKind(), unknown);
        assertThat(unknown)
                .as("%s: fields that %s does not have", file, resource.getClass())
                .isEmpty();
        return (HasMetadata) resource;
    }

    /** The check has teeth: a misspelt field, a wrong type and a kind Kubernetes does not have are refused. */
    @Test
    void aMisspeltFieldAWrongTypeOrAnUnknownKindIsRefused() {
        String deployment = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: lapse-timer}
                spec:
                  replicas: %s
                  selector: {matchLabels: {app: lapse}}
                  template:
                    metadata: {labels: {app: lapse}}
                    spec:
                      containers:
                        - name: timer
                          image: lapse:latest
                          %s:
                            httpGet: {path: /health/live, port: 8080}
                """;
        Path file = Path.of("example.yaml");

        assertThat(parse(file, new Yaml().load(deployment.formatted("2", "livenessProbe"))))
                .isInstanceOf(Deployment.class);
        assertThatThrownBy(() -> parse(file, new Yaml().load(deployment.formatted("2", "livenesProbe"))))
                .hasMessageContaining("Deployment.Spec.Template.Spec.Containers[0].livenesProbe");
        assertThatThrownBy(() -> parse(file, new Yaml().load(deployment.formatted("two", "livenessProbe"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two");
        assertThatThrownBy(() -> parse(file, new Yaml().load("{apiVersion: apps/v1, kind: Deploymnet, metadata: {}}")))
                .hasMessageContaining("a kind and apiVersion of Kubernetes itself");
    }

    @Test
    void everyServiceRunsAsAWorkloadOfTheImageWithItsOwnCommandAndTheConfigMapsFile() {
        for (String service : SERVICES) {
            Container container = container(service);
            String configFile = mountPath(service, "config") + "/lapse.properties";

            assertThat(container.getImage()).as(service).isEqualTo("lapse:latest");
            assertThat(container.getArgs()).as(service).containsExactly(service, "--config", configFile);
            assertThat(configMap().getData()).containsKey("lapse.properties");
        }
    }

    @Test
    void livenessAndReadinessAreProbedOnTheManagementPort() {
        for (String service : SERVICES) {
            Container container = container(service);

            assertThat(container.getPorts())
                    .as(service)
                    .anySatisfy(port -> assertThat(port.getContainerPort()).isEqualTo(MANAGEMENT_PORT));
            assertThat(httpPath(container.getLivenessProbe())).as(service).isEqualTo("/health/live");
            assertThat(httpPath(container.getStartupProbe())).as(service).isEqualTo("/health/live");
            assertThat(httpPath(container.getReadinessProbe())).as(service).isEqualTo("/health/ready");
            for (Probe probe :
                    List.of(container.getLivenessProbe(), container.getReadinessProbe(), container.getStartupProbe())) {
                assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("management");
            }
        }
    }

    @Test
    void everyServiceAsksForCpuAndMemoryAndIsCappedInMemoryAboveItsRequest() {
        for (String service : SERVICES) {
            Map<String, Quantity> requests = container(service).getResources().getRequests();
            Map<String, Quantity> limits = container(service).getResources().getLimits();

            assertThat(requests).as(service).containsKeys("cpu", "memory");
            assertThat(bytes(limits.get("memory"))).as(service).isGreaterThan(bytes(requests.get("memory")));
        }
        assertThat(bytes(container("compensator").getResources().getRequests().get("memory")))
                .as("the compensator measured 1.3 GB resident at 1 M orders")
                .isGreaterThanOrEqualTo(BigDecimal.valueOf(1_300_000_000L));
    }

    @Test
    void everyPodRunsAsTheImagesUserWithoutPrivilegesAndWithoutServiceVariables() {
        for (String service : SERVICES) {
            PodSpec pod = podTemplate(service).getSpec();

            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(service).isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).as(service).isEqualTo(LAPSE_UID);
            assertThat(pod.getEnableServiceLinks())
                    .as("%s: LAPSE_…_SERVICE_HOST variables would stop Lapse at start", service)
                    .isFalse();
            assertThat(container(service).getSecurityContext().getReadOnlyRootFilesystem())
                    .as(service)
                    .isTrue();
            assertThat(mountPath(service, "tmp"))
                    .as("%s: RocksDB unpacks its library in /tmp", service)
                    .isEqualTo("/tmp");
            assertThat(pod.getTerminationGracePeriodSeconds())
                    .as("%s: the timer waits 30 s for Kafka's acknowledgements", service)
                    .isGreaterThan(30L);
        }
        assertThat(podTemplate("compensator").getSpec().getTerminationGracePeriodSeconds())
                .isGreaterThanOrEqualTo(60L);
        assertThat(mountPath("compensator", "state")).isEqualTo("/var/lib/lapse");
    }

    @Test
    void aDisruptionBudgetLetsOnePodOfEachServiceGoAtATime() {
        List<PodDisruptionBudget> budgets = of(PodDisruptionBudget.class);
        for (String service : SERVICES) {
            Map<String, String> podLabels = podTemplate(service).getMetadata().getLabels();

            assertThat(budgets)
                    .as(service)
                    .filteredOn(budget -> podLabels
                            .entrySet()
                            .containsAll(budget.getSpec()
                                    .getSelector()
                                    .getMatchLabels()
                                    .entrySet()))
                    .singleElement()
                    .satisfies(budget -> assertThat(
                                    budget.getSpec().getMaxUnavailable().getIntVal())
                            .isEqualTo(1));
        }
    }

    @Test
    void theConfigMapHoldsSettingsAndEverySecretReferenceNamesAKeyOfTheSecret() throws IOException {
        Properties settings = new Properties();
        settings.load(new StringReader(configMap().getData().get("lapse.properties")));
        Set<String> keys = ConfigKeys.all().stream().map(ConfigKey::name).collect(Collectors.toSet());
        Set<String> variables =
                ConfigKeys.all().stream().map(ConfigKey::envName).collect(Collectors.toSet());
        Secret secret = single(Secret.class);

        assertThat(settings.stringPropertyNames())
                .isNotEmpty()
                .allSatisfy(key -> assertThat(keys.contains(key) || key.startsWith("kafka."))
                        .as("%s is a configuration key", key)
                        .isTrue());
        assertThat(settings.getProperty("upstream.bearer-token-file")).startsWith(mountPath("puller", "secrets"));
        for (String service : SERVICES) {
            for (EnvVar env : container(service).getEnv()) {
                assertThat(variables.contains(env.getName())
                                || env.getName().startsWith("LAPSE_KAFKA_")
                                || ConfigSource.OTHER_VARIABLES.contains(env.getName()))
                        .as("%s: %s is a configuration variable", service, env.getName())
                        .isTrue();
                if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null) {
                    var ref = env.getValueFrom().getSecretKeyRef();
                    assertThat(ref.getName()).isEqualTo(secret.getMetadata().getName());
                    if (!Boolean.TRUE.equals(ref.getOptional())) {
                        assertThat(secret.getStringData()).as(env.getName()).containsKey(ref.getKey());
                    }
                }
            }
            podTemplate(service).getSpec().getVolumes().stream()
                    .filter(volume -> volume.getSecret() != null)
                    .flatMap(volume -> volume.getSecret().getItems().stream())
                    .forEach(item -> assertThat(secret.getStringData()).containsKey(item.getKey()));
        }
    }

    private static Container container(String service) {
        List<Container> containers = podTemplate(service).getSpec().getContainers();
        assertThat(containers).as(service).hasSize(1);
        return containers.get(0);
    }

    private static PodTemplateSpec podTemplate(String service) {
        List<PodTemplateSpec> templates = new ArrayList<>();
        of(Deployment.class).stream()
                .filter(d -> d.getMetadata().getName().equals("lapse-" + service))
                .forEach(d -> templates.add(d.getSpec().getTemplate()));
        of(StatefulSet.class).stream()
                .filter(s -> s.getMetadata().getName().equals("lapse-" + service))
                .forEach(s -> templates.add(s.getSpec().getTemplate()));
        assertThat(templates)
                .as("a Deployment or StatefulSet named lapse-%s", service)
                .hasSize(1);
        return templates.get(0);
    }

    private static String mountPath(String service, String volume) {
        return container(service).getVolumeMounts().stream()
                .filter(mount -> mount.getName().equals(volume))
                .map(VolumeMount::getMountPath)
                .findFirst()
                .orElseThrow(() -> new AssertionError(service + " mounts no volume " + volume));
    }

    private static ConfigMap configMap() {
        return single(ConfigMap.class);
    }

    private static <T extends HasMetadata> List<T> of(Class<T> kind) {
        return resources.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    private static <T extends HasMetadata> T single(Class<T> kind) {
        List<T> found = of(kind);
        assertThat(found).as(kind.getSimpleName()).hasSize(1);
        return found.get(0);
    }

    private static String httpPath(Probe probe) {
        assertThat(probe).isNotNull();
        return probe.getHttpGet().getPath();
    }

    private static BigDecimal bytes(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity);
    }

    /**
     * fabric8's model keeps a field it does not know in {@code additionalProperties} rather than refusing it, as the
     * API server would: walks the parsed tree and names every such field.
     */
    static void collectUnknownFields(Object node, String path, List<String> unknown) {
        if (node instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                collectUnknownFields(item, path + "[" + i++ + "]", unknown);
            }
            return;
        }
        if (node instanceof Map<?, ?> entries) {
            entries.forEach((key, value) -> collectUnknownFields(value, path + "." + key, unknown));
            return;
        }
        if (node == null || !node.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method getter : node.getClass().getMethods()) {
            if (getter.getParameterCount() != 0
                    || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value = invoke(getter, node);
            if (getter.getName().equals("getAdditionalProperties")) {
                ((Map<?, ?>) value).keySet().forEach(field -> unknown.add(path + "." + field));
            } else {
                collectUnknownFields(value, path + "." + getter.getName().substring(3), unknown);
            }
        }
    }

    private static Object invoke(Method getter, Object node) {
        try {
            return getter.invoke(node);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(getter + " of " + node.getClass(), e);
        }
    }
}
