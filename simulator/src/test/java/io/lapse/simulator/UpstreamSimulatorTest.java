package io.lapse.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.devstack.KafkaBroker;
import io.lapse.devstack.TopicRecorder;
import io.lapse.event.JsonCodec;
import io.lapse.event.StatusPush;
import io.lapse.kafka.KafkaClients;
import io.lapse.simulator.Fleet.Mode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedKafka.class)
@Tag("slow")
class UpstreamSimulatorTest {

    private static String bootstrapServers;
    private static KafkaClients clients;

    @BeforeAll
    static void connect(KafkaBroker broker) {
        bootstrapServers = broker.bootstrapServers();
        clients = SharedKafka.clients(broker);
    }

    @Test
    void withoutAScenarioTheTestSteersTheFleetAndSeesItsPushesAndPulls() throws Exception {
        try (UpstreamSimulator simulator = new UpstreamSimulator(
                SimulatorSettings.manual(Duration.ofMillis(100)), clients, "sim-manual", Clock.systemUTC())) {
            simulator.start();
            simulator.fleet().start("o-1");
            try (TopicRecorder recorder = TopicRecorder.start(bootstrapServers, "sim-manual")) {
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> !RecordedPushes.of(recorder, "o-1").isEmpty());
            }
            simulator.fleet().silence("o-1");

            HttpResponse<byte[]> pulled = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/orders/o-1/status"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofByteArray());
            StatusPush status = JsonCodec.STATUS_PUSH.decode(pulled.body());
            assertThat(status.status()).isEqualTo("CHARGING");
            assertThat(status.ts()).isCloseTo(System.currentTimeMillis(), Offset.offset(5_000L));
            assertThat(simulator.fleet().pullsServed("o-1")).isEqualTo(1);
            assertThat(simulator.isReady()).isTrue();
            assertThat(simulator.fleet().count(Mode.PUSHING)).isZero();
        }
    }

    @Test
    void withAScenarioTheFleetFillsUpToItsOrdersAndPushes() {
        SimulatorSettings settings = new SimulatorSettings(50, Duration.ofMillis(100), 0.05, 0.02, 0, 0, Duration.ZERO);
        UpstreamSimulator simulator = new UpstreamSimulator(settings, clients, "sim-scenario", Clock.systemUTC());
        simulator.start();

        await().atMost(Duration.ofSeconds(20)).until(() -> simulator.pushesSent() >= 500);
        assertThat(simulator.fleet().count(Mode.PUSHING) + simulator.fleet().count(Mode.SILENT))
                .isEqualTo(50);

        simulator.close();
        simulator.close();
        assertThat(simulator.isReady()).isFalse();
    }
}
