package io.lapse.app;

import io.lapse.config.LapseConfig;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.kafka.KafkaClients;
import io.lapse.runtime.LapseRuntime;
import io.lapse.runtime.ServiceName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * For machines with Docker: the same services against Kafka and Redis in containers, as a production-like check.
 * Without a Docker engine (as on the development machine) it is skipped; the devstack tests cover the same ground.
 */
@Testcontainers(disabledWithoutDocker = true)
class ContainerInfrastructureTest {

    @Container
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.3.1");

    @Container
    static final GenericContainer<?> REDIS = new GenericContainer<>("redis:7.4").withExposedPorts(6379);

    @Test
    void aSilentOrderExpiresOnContainerizedKafkaAndRedis() throws Exception {
        LapseConfig config = LapseConfig.load(null, Map.of()).with(Map.of(
                "kafka.bootstrap.servers", KAFKA.getBootstrapServers(),
                "redis.uri", "redis://" + REDIS.getHost() + ":" + REDIS.getMappedPort(6379),
                "timer.ttl", "2s", "management.port", "0",
                "compensator.state-dir", Files.createTempDirectory("containers-streams").toString()));
        try (LapseRuntime lapse = new LapseRuntime(config, Clock.systemUTC())
                .start(EnumSet.of(ServiceName.INGEST, ServiceName.TIMER));
             KafkaProducer<byte[], byte[]> producer = new KafkaClients(config.kafka()).producer("test", Map.of());
             TopicRecorder expired = TopicRecorder.start(KAFKA.getBootstrapServers(), config.topics().expired())) {
            producer.send(new ProducerRecord<>(config.topics().push(), "o1".getBytes(StandardCharsets.UTF_8),
                    JsonCodec.STATUS_PUSH.encode(new StatusPush("o1", "CHARGING", System.currentTimeMillis()))));
            producer.flush();

            await().atMost(Duration.ofSeconds(60)).until(() -> !expired.records().isEmpty());
            assertThat(expired.values(JsonCodec.TIMER_EXPIRED::decode)).extracting(TimerExpired::orderId)
                    .containsExactly("o1");
        }
    }
}
