package io.lapse.faults.soak.sample;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.Node;

/**
 * Where the pipeline's state lives, in bytes: Redis's {@code used_memory}, the compensator's state folder (RocksDB on
 * disk) and its changelog topics on the broker's disk.
 */
public final class StoreProbe implements AutoCloseable {

    private final Admin admin;
    private final String changelogPrefix;
    private final Path stateDir;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> redis;

    /** @param compensatorId the Kafka Streams application id: its changelog topics are named after it */
    public StoreProbe(Admin admin, String compensatorId, Path stateDir, String redisUri) {
        this.admin = admin;
        this.changelogPrefix = compensatorId + "-";
        this.stateDir = stateDir;
        this.client = RedisClient.create(redisUri);
        this.redis = client.connect();
    }

    long redisUsedMemory() {
        for (String line : redis.sync().info("memory").split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).strip());
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }

    /** Empties Redis under the pipeline's feet, the way a lost Redis comes back. */
    public void flushRedis() {
        redis.sync().flushall();
    }

    long stateDirBytes() {
        if (!Files.isDirectory(stateDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(stateDir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(file -> {
                        try {
                            return Files.size(file);
                        } catch (IOException e) {
                            return 0; // RocksDB removed it between the walk and the look
                        }
                    })
                    .sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    long changelogBytes() {
        try {
            var brokers =
                    admin.describeCluster().nodes().get().stream().map(Node::id).toList();
            long bytes = 0;
            for (var dirs :
                    admin.describeLogDirs(brokers).allDescriptions().get().values()) {
                for (LogDirDescription dir : dirs.values()) {
                    bytes += dir.replicaInfos().entrySet().stream()
                            .filter(e -> e.getKey().topic().startsWith(changelogPrefix)
                                    && e.getKey().topic().endsWith("-changelog"))
                            .mapToLong(e -> e.getValue().size())
                            .sum();
                }
            }
            return bytes;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe the broker's log dirs", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing the broker's log dirs", e);
        }
    }

    @Override
    public void close() {
        redis.close();
        client.shutdown();
    }
}
