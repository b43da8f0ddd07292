package io.lapse.compensator.streams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the compensator keeps its Kafka Streams state: a folder per Kafka cluster under compensator.state-dir (Kafka
 * Streams adds one per application id). State belongs to the changelog topics of one cluster. Kafka Streams trusts
 * the offsets in a checkpoint file it finds: against another cluster's changelog of the same name it either restores
 * from the middle of it, skipping the orders written before the old offset, or finds the offset beyond the end,
 * restores from scratch on top of the old store and keeps the other run's orders in it.
 */
final class StateDirectory {

    private static final Logger log = LoggerFactory.getLogger(StateDirectory.class);
    private static final String PREFIX = "kafka-cluster-";

    private StateDirectory() {}

    /** The state directory for the cluster, created if missing; other clusters' folders beside it are left alone. */
    static Path forCluster(Path configured, String clusterId) {
        Path dir = configured.resolve(PREFIX + clusterId);
        try {
            Files.createDirectories(dir);
            try (Stream<Path> siblings = Files.list(configured)) {
                siblings.filter(p ->
                                !p.equals(dir) && p.getFileName().toString().startsWith(PREFIX))
                        .forEach(p ->
                                log.info("{} holds compensator state of another Kafka cluster; it is not used", p));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the compensator's state directory " + dir + ": " + e, e);
        }
        return dir;
    }
}
