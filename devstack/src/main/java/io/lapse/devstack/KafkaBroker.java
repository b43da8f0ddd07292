package io.lapse.devstack;

import java.net.BindException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka broker (KRaft, combined broker and controller) inside this JVM, on 127.0.0.1 with
 * fresh ports and a fresh log directory, removed again on close().
 */
public final class KafkaBroker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaBroker.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final int START_ATTEMPTS = 3;

    private final Path dir;
    private final String bootstrapServers;
    private final String saslBootstrapServers;
    private final KafkaRaftServer server;
    private final Admin admin;
    private final AtomicBoolean closed = new AtomicBoolean();

    private KafkaBroker(
            Path dir, String bootstrapServers, String saslBootstrapServers, KafkaRaftServer server, Admin admin) {
        this.dir = dir;
        this.bootstrapServers = bootstrapServers;
        this.saslBootstrapServers = saslBootstrapServers;
        this.server = server;
        this.admin = admin;
    }

    public static KafkaBroker start() {
        return start(Map.of());
    }

    public static KafkaBroker start(Map<String, String> extraBrokerProps) {
        return start(extraBrokerProps, Map.of());
    }

    /**
     * A broker with a second listener, SASL_PLAINTEXT with the PLAIN mechanism, that accepts these users and
     * passwords; see {@link #saslBootstrapServers()}. The PLAINTEXT listener stays for the devstack's own admin.
     */
    public static KafkaBroker startWithSaslPlain(Map<String, String> passwordsByUser) {
        return start(Map.of(), passwordsByUser);
    }

    private static KafkaBroker start(Map<String, String> extraBrokerProps, Map<String, String> saslUsers) {
        // Another process can take a picked port before the broker binds it; retry with fresh ports,
        // unless the caller fixed the listeners, where a retry would fail the same way.
        boolean ownPorts = !extraBrokerProps.containsKey("listeners");
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(extraBrokerProps, saslUsers);
            } catch (RuntimeException e) {
                if (!ownPorts || attempt == START_ATTEMPTS || !causedByBindFailure(e)) {
                    throw e;
                }
                log.warn("Kafka broker could not bind its ports, retrying on others: {}", e.toString());
            }
        }
    }

    private static KafkaBroker startOnce(Map<String, String> extraBrokerProps, Map<String, String> saslUsers) {
        long started = System.nanoTime();
        Path dir = TempDirs.create("lapse-kafka-");
        KafkaRaftServer server = null;
        KafkaBroker broker = null;
        try {
            // the controller port is part of the quorum config, which formatting records: pick both now
            int[] ports = Ports.reserve(saslUsers.isEmpty() ? 2 : 3, false);
            Properties props = KRaftSetup.singleNode(ports[0], ports[1], dir.resolve("logs"), extraBrokerProps);
            String sasl = null;
            if (!saslUsers.isEmpty()) {
                KRaftSetup.addSaslPlainListener(props, ports[2], saslUsers);
                sasl = "127.0.0.1:" + ports[2];
            }
            KRaftSetup.format(props, dir);
            server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
            server.startup();
            String bootstrap = "127.0.0.1:" + ports[0];
            broker = new KafkaBroker(
                    dir,
                    bootstrap,
                    sasl,
                    server,
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap)));
            JvmExitCleanup.register(broker);
            broker.awaitReady();
            log.info("Kafka broker ready at {} in {} ms", bootstrap, (System.nanoTime() - started) / 1_000_000);
            return broker;
        } catch (RuntimeException e) {
            if (broker != null) {
                broker.close();
            } else {
                if (server != null) {
                    server.shutdown(); // startup() shuts down itself on failure; a second call is a no-op
                    server.awaitShutdown();
                }
                TempDirs.deleteRecursively(dir);
            }
            throw e;
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The SASL_PLAINTEXT listener of a broker from {@link #startWithSaslPlain}. */
    public String saslBootstrapServers() {
        if (saslBootstrapServers == null) {
            throw new IllegalStateException("this broker has no SASL listener; start it with startWithSaslPlain");
        }
        return saslBootstrapServers;
    }

    /** The broker's working directory (config and log dirs); deleted by close(). */
    public Path logDir() {
        return dir;
    }

    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /** Returns once every partition has a leader, so the first produce does not hit a missing topic. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
        TopicReadiness.createAndAwait(admin, topic, READY_TIMEOUT);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long started = System.nanoTime();
        try {
            admin.close(Duration.ofSeconds(5));
            server.shutdown();
            server.awaitShutdown();
        } finally {
            TempDirs.deleteRecursively(dir);
            JvmExitCleanup.unregister(this);
        }
        log.info("Kafka broker at {} stopped in {} ms", bootstrapServers, (System.nanoTime() - started) / 1_000_000);
    }

    @Override
    public String toString() {
        return "KafkaBroker[" + bootstrapServers + "]";
    }

    /** startup() returns before the broker serves requests; describeCluster proves it does. */
    private void awaitReady() {
        try {
            admin.describeCluster().nodes().get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "Kafka broker at " + bootstrapServers + " not ready within " + READY_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the Kafka broker", e);
        }
    }

    private static boolean causedByBindFailure(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException) {
                return true;
            }
        }
        return false;
    }
}
