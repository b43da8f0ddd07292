package io.lapse.app;

import io.lapse.config.ConfigKeys;
import io.lapse.config.LapseConfig;
import io.lapse.devstack.DevStack;
import io.lapse.devstack.Ports;
import io.lapse.devstack.TempDirs;
import io.lapse.kafka.KafkaClients;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.SimulatorSettings;
import io.lapse.simulator.UpstreamSimulator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Writes the class-data archive ({@code lapse.jsa}, JDK AppCDS) beside the production jar: a restarted service that
 * maps it spends about half as long loading classes, which on a busy machine is most of the seconds before it takes
 * its partitions back. The archive holds what {@code lapse all} loads while it works (ingesting, firing, pulling,
 * compensating) against a devstack and the simulator. Maven runs this after packaging the jar (app/pom.xml); the
 * {@code lapse} launcher and the fault suite use the archive only while it is newer than the jar, and any failure
 * here leaves no archive, which costs start-up time and nothing else.
 *
 * <p>Arguments: the jar, the archive to write, and optionally the {@code java} to train with (by default this JVM's):
 * an archive is valid only for the JVM build that wrote it, so the image's archive is trained on the image's own
 * runtime (image/pom.xml).
 */
final class ClassArchiveTraining {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    /** Long enough for expiries to fire, be pulled and their results to be ingested and compensated. */
    private static final Duration WORKING = Duration.ofSeconds(8);

    private ClassArchiveTraining() {}

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]).toAbsolutePath();
        Path archive = Path.of(args[1]).toAbsolutePath();
        Path java = args.length > 2
                ? Path.of(args[2]).toAbsolutePath()
                : Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = archive.resolveSibling(archive.getFileName().toString().replace(".jsa", "") + "-jsa-training.log");
        Files.deleteIfExists(archive);
        try {
            train(java, jar, archive, log);
        } catch (Exception | Error e) {
            // an optimisation that failed must not fail the build
            System.out.println("class-data archive training failed: " + e);
        }
        System.out.println(
                Files.isRegularFile(archive)
                        ? "wrote " + archive + " (" + Files.size(archive) / 1_048_576 + " MB)"
                        : "wrote no class-data archive, lapse.jar starts without one: see " + log);
    }

    private static void train(Path java, Path jar, Path archive, Path log) throws Exception {
        Path stateDir = TempDirs.create("lapse-jsa-training");
        try (DevStack stack = DevStack.start()) {
            LapseConfig config = LapseConfig.load(null, Map.of())
                    .with(Map.of("kafka.bootstrap.servers", stack.bootstrapServers(), "topics.partitions", "3"));
            try (UpstreamSimulator upstream = new UpstreamSimulator(
                    SimulatorSettings.manual(Duration.ofSeconds(1)),
                    new KafkaClients(config.kafka()),
                    config.topics().push(),
                    Clock.systemUTC())) {
                upstream.start();
                int port = Ports.free();
                ProcessBuilder all = new ProcessBuilder(
                                java.toString(), "-XX:ArchiveClassesAtExit=" + archive, "-jar", jar.toString(), "all")
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
                all.environment()
                        .putAll(Map.of(
                                ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.envName(), stack.bootstrapServers(),
                                ConfigKeys.REDIS_URI.envName(), stack.redisUri(),
                                ConfigKeys.UPSTREAM_BASE_URL.envName(), upstream.baseUrl(),
                                ConfigKeys.MANAGEMENT_PORT.envName(), Integer.toString(port),
                                ConfigKeys.TIMER_TTL.envName(), "2s",
                                ConfigKeys.COMPENSATOR_STATE_DIR.envName(), stateDir.toString()));
                work(upstream.fleet(), port, all.start());
            }
        } finally {
            TempDirs.deleteRecursively(stateDir);
        }
    }

    /** Lets every service work a while, then stops the process as an operator would: the JVM writes at exit. */
    private static void work(Fleet fleet, int port, Process lapse) throws IOException, InterruptedException {
        try {
            if (!awaitReady(port, lapse)) {
                return;
            }
            List<String> orders = fleet.startMany(20, "jsa-");
            orders.subList(0, 5).forEach(fleet::silence);
            orders.subList(5, 10).forEach(fleet::finish);
            lapse.waitFor(WORKING.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            lapse.destroy();
            if (!lapse.waitFor(60, TimeUnit.SECONDS)) {
                lapse.destroyForcibly();
            }
        }
    }

    private static boolean awaitReady(int port, Process lapse) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (lapse.isAlive() && System.nanoTime() < deadline) {
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return true;
                }
            } catch (IOException notListeningYet) {
                // the management server starts a moment after the JVM
            }
            lapse.waitFor(200, TimeUnit.MILLISECONDS);
        }
        return false;
    }
}
