package io.lapse.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka broker (KRaft, combined broker and controller) in a JVM of its own, for tests of what clients do when
 * the broker goes away: {@link #stop()} and {@link #kill()} end the process, {@link #start()} runs it again on the same
 * ports and log directory, so topics and committed offsets survive. close() ends it and removes the directory.
 */
public final class KafkaBrokerProcess implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaBrokerProcess.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration READY_PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** The broker's own lines go to broker.log, warnings and worse only; INFO would cost CPU the test needs. */
    private static final String LOGGING = """
            <configuration>
              <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
              </appender>
              <root level="WARN"><appender-ref ref="OUT"/></root>
            </configuration>
            """;

    /** The listener for clients that reach the broker through a relay ({@link #startBehindRelay}). */
    private static final String RELAYED = "RELAYED";

    private final String bootstrapServers;
    private final ServerProcess server;
    private final int relayedPort;

    private KafkaBrokerProcess(String bootstrapServers, ServerProcess server, int relayedPort) {
        this.bootstrapServers = bootstrapServers;
        this.server = server;
        this.relayedPort = relayedPort;
    }

    /**
     * Formats a fresh log directory for fresh ports and starts the broker; returns once it serves requests.
     *
     * @param classpath a classpath holding the broker (kafka_2.13 and its dependencies), e.g. this JVM's
     */
    public static KafkaBrokerProcess start(String classpath) {
        return start(classpath, 0);
    }

    /**
     * As {@link #start(String)}, with a second listener for clients that must reach the broker through a relay (a
     * link that a test can stall): it listens on {@link #relayedPort()} and advertises {@code relayPort}, where the
     * relay listens, so that every connection those clients open, after the bootstrap too, goes through the relay.
     * The clients of {@link #bootstrapServers()} keep their direct link.
     */
    public static KafkaBrokerProcess startBehindRelay(String classpath, int relayPort) {
        if (relayPort <= 0) {
            throw new IllegalArgumentException("the relay's port must be positive, got " + relayPort);
        }
        return start(classpath, relayPort);
    }

    private static KafkaBrokerProcess start(String classpath, int relayPort) {
        Path dir = TempDirs.create("lapse-kafka-process-");
        int[] ports = Ports.reserve(3, false);
        Map<String, String> relayed = relayPort == 0
                ? Map.of()
                : Map.of(
                        "listeners",
                        "PLAINTEXT://127.0.0.1:" + ports[0] + ",CONTROLLER://127.0.0.1:" + ports[1] + "," + RELAYED
                                + "://127.0.0.1:" + ports[2],
                        "advertised.listeners",
                        "PLAINTEXT://127.0.0.1:" + ports[0] + "," + RELAYED + "://127.0.0.1:" + relayPort,
                        "listener.security.protocol.map",
                        "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT," + RELAYED + ":PLAINTEXT");
        Properties props = KRaftSetup.singleNode(ports[0], ports[1], dir.resolve("logs"), relayed);
        KRaftSetup.format(props, dir);
        Path logging = dir.resolve("logback.xml");
        try {
            Files.writeString(logging, LOGGING);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + logging, e);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder command = new ProcessBuilder(
                java,
                "-Xmx1g",
                "-Dlogback.configurationFile=" + logging,
                "-cp",
                classpath,
                "kafka.Kafka",
                dir.resolve("server.properties").toString());
        String bootstrapServers = "127.0.0.1:" + ports[0];
        ServerProcess server = ServerProcess.of(
                "Kafka broker at " + bootstrapServers,
                command,
                dir,
                new LogFile(dir.resolve("broker.log")),
                STOP_TIMEOUT);
        KafkaBrokerProcess broker = new KafkaBrokerProcess(bootstrapServers, server, relayPort == 0 ? 0 : ports[2]);
        try {
            broker.start();
            return broker;
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Where the relay of {@link #startBehindRelay} forwards to. */
    public int relayedPort() {
        if (relayedPort == 0) {
            throw new IllegalStateException("this broker was started without a relayed listener");
        }
        return relayedPort;
    }

    /** Config, log dirs and broker.log; deleted by close(). */
    public Path dir() {
        return server.dir();
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /** Starts the broker if it is not running, on its ports and log directory; returns once it serves requests. */
    public synchronized void start() {
        if (isRunning()) {
            return;
        }
        long started = System.nanoTime();
        server.start();
        awaitReady();
        log.info(
                "Kafka broker process {} ready at {} in {} ms",
                server.pid(),
                bootstrapServers,
                (System.nanoTime() - started) / 1_000_000);
    }

    /** SIGTERM and wait: the broker's controlled shutdown, as an operator's restart does it. */
    public synchronized void stop() {
        server.stop();
    }

    /** SIGKILL, like a crash or a lost machine: no controlled shutdown. */
    public synchronized void kill() {
        server.kill();
    }

    @Override
    public synchronized void close() {
        server.close();
    }

    @Override
    public String toString() {
        return "KafkaBrokerProcess[" + bootstrapServers + "]";
    }

    /** The process answering describeCluster proves the broker serves requests; a dead process ends the wait. */
    private void awaitReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        int timeoutMs = (int) READY_PROBE_TIMEOUT.toMillis();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                timeoutMs,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                timeoutMs))) {
            while (true) {
                server.requireAlive();
                try {
                    admin.describeCluster().nodes().get(timeoutMs, TimeUnit.MILLISECONDS);
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while waiting for the Kafka broker", e);
                } catch (Exception notYet) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "Kafka broker at " + bootstrapServers + " not ready within " + READY_TIMEOUT
                                        + "; log tail:\n" + server.logFile().tail(),
                                notYet);
                    }
                    Sleep.briefly(Duration.ofMillis(100));
                }
            }
        }
    }
}
