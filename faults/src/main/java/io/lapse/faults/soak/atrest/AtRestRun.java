package io.lapse.faults.soak.atrest;

import io.lapse.bench.harness.ProcessCpu;
import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.config.Durations;
import io.lapse.config.LapseConfig;
import io.lapse.config.Namespace;
import io.lapse.devstack.KafkaBrokerProcess;
import io.lapse.devstack.RedisServer;
import io.lapse.devstack.TopicReadiness;
import io.lapse.faults.lab.LapseLauncher;
import io.lapse.faults.lab.LapseServices;
import io.lapse.faults.lab.Role;
import io.lapse.faults.soak.SoakRun;
import io.lapse.faults.soak.sample.ProcessUsage;
import io.lapse.faults.waiting.Waiting;
import io.lapse.kafka.KafkaClients;
import io.lapse.metrics.MetricNames;
import io.lapse.operations.status.PrometheusText;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.PushGenerator;
import io.lapse.simulator.UpstreamApi;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * What a small deployment costs at rest: a broker and redis-server, each Lapse service as its own process started as
 * {@code ./lapse} starts it, and orders that all keep pushing (pushed from this JVM by the simulator, which also
 * answers as upstream). After the warm-up it measures, over the set time, the CPU of every process but this one, the
 * questions ingest asked the broker for its caught-up proof, and the commands Redis served; then it prints one
 * Markdown table.
 */
public final class AtRestRun {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);
    /** As {@code ./lapse} runs a service when LAPSE_JAVA_OPTS is not set. */
    private final AtRestOptions options;

    private final PrintStream out;
    private final String name;
    private final Path dir;

    private AtRestRun(AtRestOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.name = "rest-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        this.dir = options.out().toAbsolutePath().resolve(name);
    }

    /**
     * What one run measured, per process: cores (2.0 is both cores of this machine), and of those the cores its JIT
     * compiler threads used (a JVM minutes old still compiles; one running for days hardly does).
     */
    public record AtRestResult(
            Map<String, Double> cores,
            Map<String, Double> compilerCores,
            double proofQuestionsPerSecond,
            double redisCommandsPerSecond,
            String table) {}

    public static AtRestResult run(AtRestOptions options, PrintStream out) {
        return new AtRestRun(options, out).run();
    }

    private AtRestResult run() {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        out.printf(
                "at rest %s: %,d orders pushing every %s, none silent; broker, redis-server and four services as"
                        + " processes; %s of warm-up, then %s measured; logs in %s%n",
                name,
                options.orders(),
                Durations.format(options.pushInterval()),
                Durations.format(options.warmUp()),
                Durations.format(options.measured()),
                dir);
        Fleet fleet = new Fleet(Clock.systemUTC());
        fleet.startMany(options.orders(), "rest-");
        try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(System.getProperty("java.class.path"));
                RedisServer redis = RedisServer.start();
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
                UpstreamApi upstream = new UpstreamApi(fleet, 0, 0, Duration.ZERO)) {
            upstream.start();
            Map<ConfigKey, String> settings = new LinkedHashMap<>(new Namespace(name).keys());
            for (ConfigKey topic : List.of(
                    ConfigKeys.TOPIC_PUSH,
                    ConfigKeys.TOPIC_PULLED,
                    ConfigKeys.TOPIC_EXPIRED,
                    ConfigKeys.TOPIC_DLQ,
                    ConfigKeys.TOPIC_FLEET_EVENTS)) {
                TopicReadiness.createAndAwait(
                        admin, new NewTopic(settings.get(topic), options.partitions(), (short) 1), TOPIC_TIMEOUT);
            }
            settings.put(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS, broker.bootstrapServers());
            settings.put(ConfigKeys.REDIS_URI, redis.uri());
            settings.put(ConfigKeys.TOPICS_PARTITIONS, Integer.toString(options.partitions()));
            settings.put(ConfigKeys.UPSTREAM_BASE_URL, upstream.baseUrl());
            KafkaClients clients = new KafkaClients(LapseConfig.load(null, Map.of())
                    .with(Map.of(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.name(), broker.bootstrapServers()))
                    .kafka());
            try (LapseServices services = new LapseServices(
                            LapseLauncher.locate(),
                            settings.entrySet().stream()
                                    .collect(Collectors.toMap(e -> e.getKey().envName(), Map.Entry::getValue)),
                            dir);
                    PushGenerator pushes = new PushGenerator(
                            fleet, clients, settings.get(ConfigKeys.TOPIC_PUSH), options.pushInterval(), () -> {});
                    RedisInfo redisInfo = new RedisInfo(redis.uri())) {
                for (Role role : Role.values()) {
                    services.add(role);
                }
                if (!Waiting.until(
                        () -> services.all().stream().allMatch(p -> p.answers("/health/ready")), READY_TIMEOUT)) {
                    throw new IllegalStateException("the services are not ready within " + READY_TIMEOUT.toSeconds()
                            + " s; their logs are in " + dir);
                }
                pushes.start();
                out.println("every service is ready; pushing, warming up");
                Waiting.untilTime(System.currentTimeMillis() + options.warmUp().toMillis());
                Map<String, LongSupplier> pids = new LinkedHashMap<>();
                for (Role role : Role.values()) {
                    long pid = services.first(role).pid();
                    pids.put(role.command, () -> pid);
                }
                long brokerPid = SoakRun.brokerPid(broker);
                pids.put("broker", () -> brokerPid);
                pids.put("redis", redis::pid);
                Map<String, ProcessUsage> usage = new LinkedHashMap<>();
                pids.forEach((process, pid) -> usage.put(process, new ProcessUsage(pid.getAsLong())));
                usage.values().forEach(ProcessUsage::sample);
                Map<String, Double> compilingBefore = compilerSeconds(pids);
                double questionsBefore = questions(services);
                long commandsBefore = redisInfo.commandsProcessed();
                long startedNanos = System.nanoTime();
                Waiting.untilTime(
                        System.currentTimeMillis() + options.measured().toMillis());
                Map<String, Double> cores = new LinkedHashMap<>();
                usage.forEach((process, use) -> cores.put(process, use.sample().cores()));
                double seconds = (System.nanoTime() - startedNanos) / 1e9;
                Map<String, Double> compiling = new LinkedHashMap<>();
                compilerSeconds(pids)
                        .forEach((process, used) ->
                                compiling.put(process, (used - compilingBefore.get(process)) / seconds));
                double questions = (questions(services) - questionsBefore) / seconds;
                double commands = (redisInfo.commandsProcessed() - commandsBefore) / seconds;
                String table = table(cores, compiling, questions, commands, pushes.pushesSent());
                out.println();
                out.println(table);
                Files.writeString(dir.resolve("summary.md"), table);
                return new AtRestResult(cores, compiling, questions, commands, table);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("the run at rest failed: " + e, e);
        }
    }

    private static Map<String, Double> compilerSeconds(Map<String, LongSupplier> pids) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        pids.forEach((process, pid) -> seconds.put(process, ProcessCpu.compilerSeconds(pid.getAsLong())));
        return seconds;
    }

    /** Questions ingest has asked the broker for its caught-up proof so far: its answers' round trips, counted. */
    private static double questions(LapseServices services) {
        return PrometheusText.sum(
                services.first(Role.INGEST).metricsPage(),
                MetricNames.prometheus(MetricNames.INGEST_PROOF_ROUND_TRIP, "_seconds_count"));
    }

    private String table(
            Map<String, Double> cores,
            Map<String, Double> compiling,
            double questions,
            double commands,
            long pushesSent) {
        StringBuilder table = new StringBuilder();
        table.append(String.format(
                "%,d orders pushing every %s, none silent, %d partitions; %s measured after %s of warm-up (%,d pushes"
                        + " sent in all)%n%n",
                options.orders(),
                Durations.format(options.pushInterval()),
                options.partitions(),
                Durations.format(options.measured()),
                Durations.format(options.warmUp()),
                pushesSent));
        table.append("| process | cores | of which JIT compiling | without it |\n| --- | ---: | ---: | ---: |\n");
        cores.forEach((process, used) -> table.append(String.format(
                "| %s | %.3f | %.3f | %.3f |%n",
                process, used, compiling.get(process), used - compiling.get(process))));
        double all = cores.values().stream().mapToDouble(Double::doubleValue).sum();
        double allCompiling =
                compiling.values().stream().mapToDouble(Double::doubleValue).sum();
        table.append(
                String.format("| **all** | **%.3f** | **%.3f** | **%.3f** |%n", all, allCompiling, all - allCompiling));
        table.append(String.format(
                "%ningest's questions to the broker for its proof (each a ListOffsets and a DescribeTopicPartitions):"
                        + " %.1f/s; Redis commands: %.1f/s%n",
                questions, commands));
        return table.toString();
    }

    /** The commands Redis has served so far, from INFO stats. */
    private static final class RedisInfo implements AutoCloseable {

        private final RedisClient client;
        private final StatefulRedisConnection<String, String> connection;

        RedisInfo(String uri) {
            client = RedisClient.create(uri);
            connection = client.connect();
        }

        long commandsProcessed() {
            for (String line : connection.sync().info("stats").split("\r?\n")) {
                if (line.startsWith("total_commands_processed:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            throw new IllegalStateException("INFO stats has no total_commands_processed");
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
