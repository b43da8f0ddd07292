package io.lapse.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class KafkaBrokerTest {

    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void aRecordProducedWithAcksAllAndIdempotenceIsConsumedBackByAConsumerGroup() throws Exception {
        broker.createTopic("orders", 3);

        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true),
                new StringSerializer(),
                new StringSerializer())) {
            RecordMetadata sent = producer.send(new ProducerRecord<>("orders", "order-1", "charging"))
                    .get(30, TimeUnit.SECONDS);
            assertThat(sent.offset()).isZero();
        }

        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG, "watchdog",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("orders"));
            List<ConsumerRecord<String, String>> received = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(received::add);
                return !received.isEmpty();
            });
            assertThat(received).singleElement().satisfies(record -> {
                assertThat(record.key()).isEqualTo("order-1");
                assertThat(record.value()).isEqualTo("charging");
            });
            consumer.commitSync();
        }
    }

    @Test
    void aTopicIsCreatedWithTheGivenPartitionsAndConfigs() throws Exception {
        broker.createTopic("timers", 2, Map.of("cleanup.policy", "compact"));

        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            assertThat(admin.describeTopics(List.of("timers"))
                            .allTopicNames()
                            .get()
                            .get("timers")
                            .partitions())
                    .hasSize(2);
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "timers");
            assertThat(admin.describeConfigs(List.of(topic))
                            .all()
                            .get()
                            .get(topic)
                            .get("cleanup.policy")
                            .value())
                    .isEqualTo("compact");
        }
    }

    @Test
    void closeStopsTheBrokerAndDeletesItsLogDirAndCanBeRepeated() {
        KafkaBroker own = KafkaBroker.start();
        Path logDir = own.logDir();
        int port = Integer.parseInt(
                own.bootstrapServers().substring(own.bootstrapServers().indexOf(':') + 1));
        assertThat(logDir).isDirectory();

        own.close();
        own.close();

        assertThat(logDir).doesNotExist();
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
                .as("nothing listens on the broker port any more")
                .isInstanceOf(ConnectException.class);
    }
}
