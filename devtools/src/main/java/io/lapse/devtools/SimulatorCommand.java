package io.lapse.devtools;

import io.lapse.config.LapseConfig;
import io.lapse.kafka.KafkaClients;
import io.lapse.simulator.UpstreamSimulator;
import java.io.PrintStream;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "simulator",
        description = "The simulated upstream charging platform on its own, against any Kafka: its status API "
                + "(GET /orders/{orderId}/status, what the puller asks) and its push generator, which writes every "
                + "active order's status to the push topic. For trying Lapse against your own broker; "
                + "docker/compose.yaml runs it in the demo profile.",
        footer = {
            "%nExample:",
            "  lapse simulator --bootstrap-servers localhost:9092 --orders 1000 --push-interval 15s --port 8081",
            "  (then run Lapse with upstream.base-url=http://localhost:8081)"
        })
final class SimulatorCommand implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", required = true, description = "The Kafka to push to.")
    String bootstrapServers;

    @Option(
            names = "--topic",
            defaultValue = "charging.status.push",
            description = "The push topic, created when missing (${DEFAULT-VALUE}).")
    String topic;

    @Mixin
    SimulationOptions simulation = new SimulationOptions("15s");

    @Option(names = "--port", defaultValue = "8081", description = "Port of the status API (${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--address",
            defaultValue = "0.0.0.0",
            description = "Address the status API listens on; 0.0.0.0 lets Lapse in another container reach it "
                    + "(${DEFAULT-VALUE}).")
    String address;

    @Mixin
    RunUntilStopped until;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        until.catchSignals();
        LapseConfig config = LapseConfig.load(null, Map.of()).with(Map.of("kafka.bootstrap.servers", bootstrapServers));
        try (UpstreamSimulator simulator = new UpstreamSimulator(
                simulation.settings(port),
                new KafkaClients(config.kafka()),
                topic,
                Clock.systemUTC(),
                InetAddress.getByName(address))) {
            simulator.start();
            out.printf(
                    "lapse simulator: %d orders pushing every %s to %s on %s; status API on %s:%d "
                            + "(GET /orders/{orderId}/status)%n",
                    simulation.orders, simulation.pushInterval, topic, bootstrapServers, address, port);
            until.everyPeriod(Duration.ofSeconds(1), () -> {
                // pushing and answering happen on the simulator's own threads
            });
            out.printf("lapse simulator: stopping after %,d pushes%n", simulator.pushesSent());
        }
        return 0;
    }
}
