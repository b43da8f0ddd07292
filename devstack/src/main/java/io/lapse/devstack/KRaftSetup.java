package io.lapse.devstack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares a fresh single-node KRaft cluster (one process is both broker and controller): its
 * configuration and its formatted log directory, everything that must exist before startup().
 */
final class KRaftSetup {

    private static final Logger log = LoggerFactory.getLogger(KRaftSetup.class);

    private KRaftSetup() {}

    static Properties singleNode(int port, int controllerPort, Path logDir, Map<String, String> extra) {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", logDir.toString());

        // Internal topics default to replication factor 3 and min ISR 2: with one broker, consumer
        // groups, transactions and share groups would then wait forever for their state topics.
        props.put("offsets.topic.replication.factor", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("default.replication.factor", "1");
        props.put("min.insync.replicas", "1");

        // One partition per internal topic: creating 50 offset partitions costs seconds on 2 cores.
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.num.partitions", "1");
        props.put("share.coordinator.state.topic.num.partitions", "1");
        props.put("num.partitions", "1");
        // The classic protocol otherwise waits 3 s for more members before the first assignment.
        props.put("group.initial.rebalance.delay.ms", "0");
        // The log cleaner allocates its 128 MB dedupe buffer on the heap at startup; tests that run
        // several brokers in one JVM do not need that much for their few compacted records.
        props.put("log.cleaner.dedupe.buffer.size", Integer.toString(16 * 1024 * 1024));

        props.putAll(extra);
        return props;
    }

    /** A SASL_PLAINTEXT listener with the PLAIN mechanism beside the PLAINTEXT one, for these users. */
    static void addSaslPlainListener(Properties props, int port, Map<String, String> passwordsByUser) {
        String listener = "SASL_PLAINTEXT://127.0.0.1:" + port;
        props.put("listeners", props.getProperty("listeners") + "," + listener);
        props.put("advertised.listeners", props.getProperty("advertised.listeners") + "," + listener);
        props.put(
                "listener.security.protocol.map",
                props.getProperty("listener.security.protocol.map") + ",SASL_PLAINTEXT:SASL_PLAINTEXT");
        props.put("sasl.enabled.mechanisms", "PLAIN");
        StringBuilder jaas = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
        passwordsByUser.forEach((user, password) -> jaas.append(" user_")
                .append(user)
                .append("=\"")
                .append(password)
                .append('"'));
        props.put(
                "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                jaas.append(';').toString());
    }

    /**
     * Writes the config next to the log dir (StorageTool reads a file, not Properties) and formats
     * the log dir with a random cluster id, as {@code kafka-storage.sh format} would.
     */
    static void format(Properties props, Path dir) {
        Path configFile = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(configFile)) {
            props.store(out, "lapse devstack single-node KRaft broker");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + configFile, e);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        String[] args = {"format", "-t", Uuid.randomUuid().toString(), "-c", configFile.toString(), "--ignore-formatted"
        };
        int exitCode;
        try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            exitCode = StorageTool.execute(args, out);
        }
        if (exitCode != 0) {
            throw new IllegalStateException("Formatting the Kafka log dir failed (exit code " + exitCode + "): "
                    + output.toString(StandardCharsets.UTF_8));
        }
        log.debug("Formatted: {}", output.toString(StandardCharsets.UTF_8).strip());
    }
}
