package io.lapse.operations;

import io.lapse.compensator.CompensatorService;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.ingest.IngestService;
import io.lapse.kafka.KafkaClients;
import io.lapse.lifecycle.Service;
import io.lapse.ops.Health;
import io.lapse.ops.ManagementServer;
import io.lapse.puller.PullerService;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.TimerStore;
import io.lapse.store.Watermarks;
import io.lapse.timer.TimerService;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Not a test: the devstack, the simulated platform and the four services with the default topic names, for running
 * the README's runbook against with the real lapse jar. Writes {@code DIR/lapse.properties}, then follows the lines
 * appended to {@code DIR/control}: api-errors RATE, silence FROM TO, resume FROM TO (order numbers), stop-ingest,
 * start-ingest, flushall, poison, quit.
 */
public final class RunbookRehearsal {

    private RunbookRehearsal() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "/tmp/lapse-runbook");
        Files.createDirectories(dir);
        Path control = dir.resolve("control");
        Files.writeString(control, "");
        try (DevStack stack = DevStack.start()) {
            Map<String, String> settings = new TreeMap<>(Map.of(
                    "kafka.bootstrap.servers",
                    stack.bootstrapServers(),
                    "redis.uri",
                    stack.redisUri(),
                    "timer.ttl",
                    "5s",
                    "timer.max-attempts",
                    "3",
                    "topics.partitions",
                    "3",
                    "management.port",
                    "18080",
                    "upstream.circuit-open",
                    "10s",
                    "compensator.scan-interval",
                    "30s",
                    "compensator.state-dir",
                    Files.createTempDirectory("runbook-streams").toString()));
            Files.writeString(
                    dir.resolve("lapse.properties"),
                    String.join(
                                    "\n",
                                    settings.entrySet().stream()
                                            .map(e -> e.getKey() + "=" + e.getValue())
                                            .toList()) + "\n");
            LapseConfig config = LapseConfig.load(null, Map.of()).with(settings);
            KafkaClients clients = new KafkaClients(config.kafka());
            try (UpstreamSimulator upstream = new UpstreamSimulator(
                            SimulatorSettings.manual(Duration.ofSeconds(1)),
                            clients,
                            config.topics().push(),
                            Clock.systemUTC());
                    RedisConnection redis = RedisConnection.open(config.redis())) {
                upstream.start();
                upstream.fleet().startMany(200, "order-");
                new Pipeline(config.with(Map.of("upstream.base-url", upstream.baseUrl())), clients, redis)
                        .run(upstream, control);
            }
        }
    }

    /** The four services, each of which the control file may stop and start again. */
    private record Pipeline(LapseConfig config, KafkaClients clients, RedisConnection redis) {

        void run(UpstreamSimulator upstream, Path control) throws Exception {
            TimerKeys keys =
                    new TimerKeys(config.redis().keyPrefix(), config.timer().shards());
            TimerStore store = TimerStore.of(redis, keys, config.timer());
            Watermarks watermarks = Watermarks.of(redis, keys, config);
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            Clock clock = Clock.systemUTC();
            Service ingest = started(new IngestService(config, clients, store, watermarks, registry, clock));
            List<Service> others = List.of(
                    started(new TimerService(config, clients, store, watermarks, registry, clock)),
                    started(new PullerService(config, clients, store, registry, clock)),
                    started(new CompensatorService(config, clients, redis, watermarks, registry, Clock.systemUTC())));
            ManagementServer management = ManagementServer.start(config.management(), registry, new Health());
            System.out.println("rehearsal: running; settings in lapse.properties, commands in " + control);
            int done = 0;
            while (true) {
                List<String> lines = Files.readAllLines(control);
                for (String line : lines.subList(done, lines.size())) {
                    System.out.println("rehearsal: " + line);
                    String[] words = line.trim().split("\\s+");
                    switch (words[0]) {
                        case "api-errors" -> upstream.api().errorRate(Double.parseDouble(words[1]));
                        case "silence", "resume" -> {
                            for (int i = Integer.parseInt(words[1]); i <= Integer.parseInt(words[2]); i++) {
                                if (words[0].equals("silence")) {
                                    upstream.fleet().silence("order-" + i);
                                } else {
                                    upstream.fleet().resume("order-" + i);
                                }
                            }
                        }
                        case "stop-ingest" -> ingest.close();
                        case "start-ingest" ->
                            ingest = started(new IngestService(config, clients, store, watermarks, registry, clock));
                        case "flushall" ->
                            redis.async().flushall().toCompletableFuture().join();
                        case "poison" -> poison();
                        case "quit" -> {
                            management.close();
                            ingest.close();
                            for (Service service : others) {
                                service.close();
                            }
                            return;
                        }
                        default -> System.out.println("rehearsal: unknown command " + line);
                    }
                }
                done = lines.size();
                Thread.sleep(200);
            }
        }

        private void poison() {
            try (KafkaProducer<byte[], byte[]> producer = clients.producer("rehearsal-poison", Map.of())) {
                producer.send(new ProducerRecord<>(
                        config.topics().push(),
                        utf8("order-17"),
                        utf8("{\"orderId\":\"order-17\",\"status\":\"CHARGING\",\"ts\":\"yesterday\"}")));
                producer.send(
                        new ProducerRecord<>(config.topics().push(), utf8("order-18"), utf8("order-18 CHARGING")));
            }
        }

        private static byte[] utf8(String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        private static Service started(Service service) {
            service.start();
            return service;
        }
    }
}
