package io.lapse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.KafkaBroker;
import io.lapse.devstack.RedisServer;
import io.lapse.lifecycle.ServiceName;
import io.lapse.runtime.LapseRuntime;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A service started before Redis or Kafka waits for it, says so on /health/ready, and becomes ready once it is up.
 */
@Tag("slow")
class StartOrderTest {

    @Test
    void ingestStartedWhileRedisIsDownWaitsForItInsteadOfDying() throws Exception {
        try (KafkaBroker kafka = KafkaBroker.start();
                RedisServer redis = RedisServer.start()) {
            redis.stop();
            LapseConfig config = LapseConfig.load(null, Map.of())
                    .with(Map.of(
                            "kafka.bootstrap.servers",
                            kafka.bootstrapServers(),
                            "redis.uri",
                            redis.uri(),
                            "topics.partitions",
                            "2",
                            "management.address",
                            "127.0.0.1",
                            "management.port",
                            "0"));
            try (LapseRuntime lapse = new LapseRuntime(config, Clock.systemUTC())) {
                CompletableFuture<LapseRuntime> starting =
                        CompletableFuture.supplyAsync(() -> lapse.start(EnumSet.of(ServiceName.INGEST)));
                ManagementClient management = new ManagementClient(lapse.managementPort());

                await().atMost(Duration.ofSeconds(20))
                        .until(() -> management
                                .json("/health/ready")
                                .path("failing")
                                .path("startup")
                                .asText()
                                .startsWith("waiting for Redis"));
                JsonNode ready = management.json("/health/ready");
                assertThat(management.get("/health/ready").statusCode()).isEqualTo(503);
                assertThat(ready.get("failing").get("startup").asText())
                        .contains("waiting for Redis at " + redis.uri());
                assertThat(management.get("/health/live").statusCode())
                        .as("waiting is not dead")
                        .isEqualTo(200);
                assertThat(starting).isNotDone();

                redis.restart();

                await().atMost(Duration.ofSeconds(60))
                        .until(() -> management.get("/health/ready").statusCode() == 200);
                assertThat(starting.get(10, TimeUnit.SECONDS)).isSameAs(lapse);
                assertThat(management
                                .json("/health/ready")
                                .get("checks")
                                .get("ingest")
                                .asText())
                        .isEqualTo("UP");
            }
        }
    }

    @Test
    void ingestStartedWhileKafkaIsUnreachableWaitsForIt() throws Exception {
        int bootstrapPort;
        try (ServerSocket nothingYet = new ServerSocket(0)) {
            bootstrapPort = nothingYet.getLocalPort();
        }
        try (KafkaBroker kafka = KafkaBroker.start();
                RedisServer redis = RedisServer.start()) {
            LapseConfig config = LapseConfig.load(null, Map.of())
                    .with(Map.of(
                            "kafka.bootstrap.servers",
                            "127.0.0.1:" + bootstrapPort,
                            "redis.uri",
                            redis.uri(),
                            "topics.partitions",
                            "2",
                            "management.address",
                            "127.0.0.1",
                            "management.port",
                            "0"));
            try (LapseRuntime lapse = new LapseRuntime(config, Clock.systemUTC())) {
                CompletableFuture<LapseRuntime> starting =
                        CompletableFuture.supplyAsync(() -> lapse.start(EnumSet.of(ServiceName.INGEST)));
                ManagementClient management = new ManagementClient(lapse.managementPort());

                await().atMost(Duration.ofSeconds(60))
                        .until(() -> management
                                .json("/health/ready")
                                .path("failing")
                                .path("startup")
                                .asText()
                                .startsWith("waiting for Kafka at 127.0.0.1:" + bootstrapPort));
                assertThat(starting).isNotDone();

                // the broker appears at the bootstrap address; after it, clients follow what it advertises
                int brokerPort = Integer.parseInt(kafka.bootstrapServers()
                        .substring(kafka.bootstrapServers().lastIndexOf(':') + 1));
                try (TcpForwarder bootstrap = TcpForwarder.start(bootstrapPort, brokerPort)) {
                    await().atMost(Duration.ofSeconds(90))
                            .until(() -> management.get("/health/ready").statusCode() == 200);
                    assertThat(starting.get(10, TimeUnit.SECONDS)).isSameAs(lapse);
                }
            }
        }
    }
}
