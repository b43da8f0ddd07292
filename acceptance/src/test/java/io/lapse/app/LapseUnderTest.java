package io.lapse.app;

import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceName;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The whole pipeline on real Kafka, Redis and HTTP: the four services in one runtime, and a simulated upstream whose
 * orders push every second until a test silences or finishes them.
 */
final class LapseUnderTest implements AutoCloseable {

    final DevStack stack;
    final UpstreamSimulator simulator;
    final LapseRuntime lapse;
    final LapseConfig config;

    private LapseUnderTest(DevStack stack, UpstreamSimulator simulator, LapseRuntime lapse, LapseConfig config) {
        this.stack = stack;
        this.simulator = simulator;
        this.lapse = lapse;
        this.config = config;
    }

    static LapseUnderTest start(long ttlMillis) throws IOException {
        DevStack stack = DevStack.start();
        LapseConfig config = LapseConfig.load(null, Map.of())
                .with(Map.of(
                        "kafka.bootstrap.servers",
                        stack.bootstrapServers(),
                        "redis.uri",
                        stack.redisUri(),
                        "timer.ttl",
                        ttlMillis + "ms",
                        "topics.partitions",
                        "3",
                        "management.port",
                        "0",
                        "compensator.state-dir",
                        Files.createTempDirectory("lapse-streams").toString()));
        UpstreamSimulator simulator = new UpstreamSimulator(
                SimulatorSettings.manual(Duration.ofSeconds(1)),
                new KafkaClients(config.kafka()),
                config.topics().push(),
                Clock.systemUTC());
        simulator.start();
        config = config.with(Map.of("upstream.base-url", simulator.baseUrl()));
        LapseRuntime lapse = new LapseRuntime(config, Clock.systemUTC()).start(ServiceName.ALL);
        return new LapseUnderTest(stack, simulator, lapse, config);
    }

    @Override
    public void close() {
        lapse.close();
        simulator.close();
        stack.close();
    }
}
