package io.lapse.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ConfigSource;
import io.lapse.config.KafkaSettings;
import io.lapse.devstack.KafkaBroker;
import io.lapse.lifecycle.StartupRetry;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** kafka.* settings reach every client: a broker that only lets SASL/PLAIN users in serves Lapse's clients. */
@Tag("slow")
class KafkaSecurityTest {

    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.startWithSaslPlain(Map.of("lapse", "s3cret"));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void saslSettingsFromTheEnvironmentReachTheAdminProducerAndConsumer() throws Exception {
        KafkaClients clients = new KafkaClients(settings("s3cret"));
        new TopicProvisioner(clients).ensure(Set.of("sasl.check"));

        try (KafkaProducer<byte[], byte[]> producer = clients.producer("sasl-test", Map.of());
                KafkaConsumer<byte[], byte[]> consumer = clients.consumer("sasl-test", "sasl-test", Map.of())) {
            producer.send(new ProducerRecord<>(
                            "sasl.check",
                            "k".getBytes(StandardCharsets.UTF_8),
                            "through SASL".getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS);
            consumer.subscribe(List.of("sasl.check"));
            List<String> read = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read.add(new String(r.value(), StandardCharsets.UTF_8));
                }
                return !read.isEmpty();
            });
            assertThat(read).containsExactly("through SASL");
        }
    }

    @Test
    void refusedCredentialsKeepTheServiceWaitingAndSayWhy() {
        try (StartupRetry startup = new StartupRetry()) {
            KafkaClients clients = new KafkaClients(settings("wrong"), startup);
            CompletableFuture<Void> provisioning =
                    CompletableFuture.runAsync(() -> new TopicProvisioner(clients).ensure(Set.of("sasl.refused")));

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> startup.problem().orElse("").startsWith("waiting for"));
            assertThat(startup.problem().get())
                    .contains("waiting for Kafka at " + broker.saslBootstrapServers())
                    .containsIgnoringCase("authentication failed")
                    .doesNotContain("wrong");

            startup.close();
            assertThatThrownBy(() -> provisioning.get(30, TimeUnit.SECONDS))
                    .hasMessageContaining("stopped while waiting");
        }
    }

    @Test
    void aServiceStartedBeforeKafkaIsReachableWaitsForIt() throws Exception {
        int nothingListens;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        try (StartupRetry startup = new StartupRetry()) {
            KafkaClients clients = new KafkaClients(
                    KafkaSettings.from(ConfigSource.defaults()
                            .with(Map.of("kafka.bootstrap.servers", "127.0.0.1:" + nothingListens))),
                    startup);
            CompletableFuture<Void> provisioning =
                    CompletableFuture.runAsync(() -> new TopicProvisioner(clients).ensure(Set.of("never")));

            await().atMost(Duration.ofSeconds(40))
                    .until(() -> startup.problem().orElse("").startsWith("waiting for"));
            assertThat(startup.problem().get())
                    .contains("waiting for Kafka at 127.0.0.1:" + nothingListens, "attempt 1");
            assertThat(provisioning).isNotDone();
            startup.close();
            assertThatThrownBy(() -> provisioning.get(30, TimeUnit.SECONDS))
                    .hasMessageContaining("stopped while waiting");
        }
    }

    private static KafkaSettings settings(String password) {
        return KafkaSettings.from(ConfigSource.load(
                null,
                Map.of(
                        "LAPSE_KAFKA_BOOTSTRAP_SERVERS",
                        broker.saslBootstrapServers(),
                        "LAPSE_KAFKA_SECURITY_PROTOCOL",
                        "SASL_PLAINTEXT",
                        "LAPSE_KAFKA_SASL_MECHANISM",
                        "PLAIN",
                        "LAPSE_KAFKA_SASL_JAAS_CONFIG",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required "
                                + "username=\"lapse\" password=\"" + password + "\";")));
    }
}
