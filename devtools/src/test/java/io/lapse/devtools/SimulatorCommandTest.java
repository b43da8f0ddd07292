package io.lapse.devtools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.DevStack;
import io.lapse.devstack.Ports;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusHeader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** lapse simulator on its own against a broker: its pushes arrive on the topic and its API answers for them. */
@Tag("slow")
class SimulatorCommandTest {

    @Test
    void itPushesToTheTopicAndItsApiAnswersTheStatusOfAnOrderItPushed() throws Exception {
        try (DevStack stack = DevStack.start()) {
            int port = Ports.free();
            CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() -> DevMain.commandLine()
                    .execute(
                            "simulator",
                            "--bootstrap-servers",
                            stack.bootstrapServers(),
                            "--topic",
                            "simulated.push",
                            "--orders",
                            "20",
                            "--push-interval",
                            "500ms",
                            "--address",
                            "127.0.0.1",
                            "--port",
                            String.valueOf(port),
                            "--duration",
                            "8s"));
            // asked while the simulator runs (its --duration is a window), polled from its first moment; what it
            // pushed stays on the topic, which is read after
            String orderId = "order-1";
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest ask = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/orders/" + orderId + "/status"))
                    .build();
            HttpResponse<String> status = await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsInstanceOf(ConnectException.class)
                    .until(
                            () -> http.send(ask, HttpResponse.BodyHandlers.ofString()),
                            answer -> answer.statusCode() == 200);
            assertThat(JsonCodec.STATUS_HEADER.decode(status.body().getBytes()).orderId())
                    .isEqualTo(orderId);

            List<StatusHeader> pushes = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                            ConsumerConfig.GROUP_ID_CONFIG, "simulator-test",
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.subscribe(List.of("simulated.push"));
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                        pushes.add(JsonCodec.STATUS_HEADER.decode(record.value()));
                    }
                    return pushes.size() >= 20;
                });
            }
            assertThat(pushes).extracting(StatusHeader::orderId).contains(orderId);
            assertThat(running.get()).isZero();
        }
    }
}
