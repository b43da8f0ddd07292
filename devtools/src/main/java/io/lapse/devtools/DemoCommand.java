package io.lapse.devtools;

import io.lapse.app.ConsoleRebuild;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.ServiceName;
import io.lapse.operations.console.ConsoleServer;
import io.lapse.runtime.LapseRuntime;
import io.lapse.simulator.UpstreamSimulator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "demo",
        description = "Run the whole pipeline on an embedded Kafka and Redis with a simulated "
                + "upstream, printing a status line every 2 s until Ctrl-C.")
final class DemoCommand implements Callable<Integer> {

    @Mixin
    SimulationOptions simulation = new SimulationOptions("1500ms");

    @Option(names = "--ttl", defaultValue = "9s", description = "timer.ttl for the demo (${DEFAULT-VALUE}).")
    String ttl;

    @Option(names = "--mode", defaultValue = "zset", description = "timer.mode: zset or ttl (${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--management-port", defaultValue = "0", description = "Port of /metrics and health; 0 picks one.")
    int managementPort;

    @Mixin
    RunUntilStopped until;

    private static final Duration CONSOLE_TIMEOUT = Duration.ofSeconds(10);

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        until.catchSignals();
        Clock clock = Clock.systemUTC();
        out.println("lapse demo: starting Kafka and Redis on this machine…");
        try (DevStack stack = DevStack.start()) {
            Map<String, String> settings = settings(stack);
            LapseConfig config = LapseConfig.load(null, Map.of()).with(settings);
            try (UpstreamSimulator simulator = new UpstreamSimulator(
                    simulation.settings(0),
                    new KafkaClients(config.kafka()),
                    config.topics().push(),
                    clock)) {
                simulator.start();
                config = config.with(Map.of("upstream.base-url", simulator.baseUrl()));
                try (LapseRuntime runtime = new LapseRuntime(config, clock).start(ServiceName.ALL);
                        ConsoleServer console = ConsoleServer.start(
                                consoleConfig(config, settings),
                                List.of("http://localhost:" + runtime.managementPort() + "/metrics"),
                                System.getProperty("user.name"),
                                CONSOLE_TIMEOUT,
                                new ConsoleRebuild())) {
                    out.printf(
                            "lapse demo: %d orders pushing every %s, ttl %s, %.0f %% going silent; status page at "
                                    + "http://localhost:%d/, console at %s — Ctrl-C stops%n",
                            simulation.orders,
                            simulation.pushInterval,
                            ttl,
                            simulation.silent * 100,
                            runtime.managementPort(),
                            console.url());
                    StatusLine status = new StatusLine(
                            new MetricsView(runtime.registry()),
                            runtime.store(),
                            simulator.fleet(),
                            clock,
                            config.topics().push());
                    until.everyPeriod(Duration.ofSeconds(2), () -> out.println(status.next()));
                    out.println("lapse demo: stopping…");
                }
            }
        }
        out.println("lapse demo: stopped");
        return 0;
    }

    /**
     * The console runs the on-call commands, which read a configuration file: the demo's settings, written to a
     * temporary one, with the console on a free port of 127.0.0.1.
     */
    private static Path consoleConfig(LapseConfig config, Map<String, String> settings) throws IOException {
        Properties properties = new Properties();
        properties.putAll(settings);
        properties.put("upstream.base-url", config.upstream().baseUrl().toString());
        properties.put("console.port", "0");
        Path file = Files.createTempFile("lapse-demo-console", ".properties");
        file.toFile().deleteOnExit();
        try (Writer writer = Files.newBufferedWriter(file)) {
            properties.store(writer, "lapse demo: what its console's on-call commands read");
        }
        return file;
    }

    private Map<String, String> settings(DevStack stack) throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("kafka.bootstrap.servers", stack.bootstrapServers());
        settings.put("redis.uri", stack.redisUri());
        settings.put("timer.ttl", ttl);
        settings.put("timer.mode", mode);
        settings.put("topics.partitions", "3");
        settings.put("compensator.scan-interval", "10s");
        settings.put(
                "compensator.state-dir",
                Files.createTempDirectory("lapse-demo-streams").toString());
        settings.put("management.port", Integer.toString(managementPort));
        return settings;
    }
}
