package io.lapse.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class KafkaBrokerProcessTest {

    private static final TopicPartition TOPIC = new TopicPartition("kept", 0);

    @Test
    void aBrokerStartedAgainKeepsItsPortAndItsRecordsAndCloseRemovesItsDirectory() throws Exception {
        KafkaBrokerProcess broker = KafkaBrokerProcess.start(System.getProperty("java.class.path"));
        Path dir = broker.dir();
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC.topic(), 1, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC.topic(), "before the restart"))
                    .get(30, TimeUnit.SECONDS);
        }

        broker.kill();
        assertThat(broker.isRunning()).isFalse();
        broker.start();

        assertThat(readAll(broker.bootstrapServers())).containsExactly("before the restart");
        broker.close();
        broker.close();
        assertThat(broker.isRunning()).isFalse();
        assertThat(dir).doesNotExist();
    }

    private static List<String> readAll(String bootstrapServers) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(TOPIC));
            List<String> values = new ArrayList<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                return !values.isEmpty();
            });
            return values;
        }
    }
}
