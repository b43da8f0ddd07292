package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceName;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.kafka.KafkaContainer;

/**
 * For machines with Docker ({@code ./mvnw verify -Pcontainers}): the four services end to end against Kafka and a
 * password-protected Redis with AOF in containers, the images compose uses. Without a Docker engine it is skipped
 * with a message saying so; the default build does not run it (the devstack tests cover the same ground).
 */
@Tag("containers")
@EnabledIf(value = "dockerIsAvailable", disabledReason = ContainerInfrastructureTest.NO_DOCKER)
class ContainerInfrastructureTest {

    static final String NO_DOCKER = "Docker is not available: skipping the container end-to-end test "
            + "(-Pcontainers needs a running Docker engine)";

    private static KafkaContainer kafka;
    private static GenericContainer<?> redis;

    static boolean dockerIsAvailable() {
        boolean docker = DockerClientFactory.instance().isDockerAvailable();
        if (!docker) {
            System.err.println(NO_DOCKER);
        }
        return docker;
    }

    @BeforeAll
    static void startContainers() {
        kafka = new KafkaContainer("apache/kafka:4.3.1");
        redis = new GenericContainer<>("redis:7.4")
                .withExposedPorts(6379)
                .withCommand("redis-server", "--appendonly", "yes", "--requirepass", "container-secret");
        kafka.start();
        redis.start();
    }

    @AfterAll
    static void stopContainers() {
        if (kafka != null) {
            kafka.stop();
        }
        if (redis != null) {
            redis.stop();
        }
    }

    @Test
    void silentOrdersArePulledOnContainerizedKafkaAndRedis() throws Exception {
        LapseConfig config = LapseConfig.load(null, Map.of())
                .with(Map.of(
                        "kafka.bootstrap.servers",
                        kafka.getBootstrapServers(),
                        "redis.uri",
                        "redis://:container-secret@" + redis.getHost() + ":" + redis.getMappedPort(6379),
                        "timer.ttl",
                        "2s",
                        "management.address",
                        "127.0.0.1",
                        "management.port",
                        "0",
                        "compensator.state-dir",
                        Files.createTempDirectory("containers-streams").toString()));
        try (UpstreamSimulator simulator = new UpstreamSimulator(
                SimulatorSettings.manual(Duration.ofSeconds(1)),
                new KafkaClients(config.kafka()),
                config.topics().push(),
                Clock.systemUTC())) {
            simulator.start();
            try (LapseRuntime lapse = new LapseRuntime(
                            config.with(Map.of("upstream.base-url", simulator.baseUrl())), Clock.systemUTC())
                    .start(ServiceName.ALL)) {
                ManagementClient management = new ManagementClient(lapse.managementPort());
                List<String> orders = simulator.fleet().startMany(20, "containers-");
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> management.get("/health/ready").statusCode() == 200);
                orders.subList(0, 2).forEach(simulator.fleet()::silence);

                await().atMost(Duration.ofSeconds(90))
                        .until(() -> management
                                        .json("/status.json")
                                        .path("process")
                                        .path("pulls")
                                        .path("ok")
                                        .asLong()
                                >= 2);
                assertThat(management
                                .json("/status.json")
                                .path("process")
                                .path("timers")
                                .path("watched")
                                .asLong())
                        .isEqualTo(20);
            }
        }
    }
}
