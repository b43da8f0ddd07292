package io.lapse.kafka;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The static-membership id (Kafka's group.instance.id) one consumer presents to its group: a restarted process that
 * presents the id of the one it replaces gets that member's partitions back at once, instead of waiting for its
 * session to time out and a rebalance; two members presenting the same id would fence each other.
 * <p>
 * Unless {@code instance.id} names the process, the id is "host-slot": slot is the lowest number that no other live
 * consumer of the same group on this host holds, held as a lock on a file in the temp directory. The operating
 * system releases the lock when the process ends, however it ends (kill -9 too), so a process restarted on the same
 * host gets the same slot back, and two processes running at once never get the same one. Two hosts must not share
 * a host name; where they do, set {@code instance.id}.
 */
public final class InstanceSlot implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InstanceSlot.class);
    private static final int MOST_SLOTS = 1_000;

    private final String id;
    private final FileLock lock;

    private InstanceSlot(String id, FileLock lock) {
        this.id = id;
        this.lock = lock;
    }

    /**
     * @param configured the operator's instance.id, or empty to take a slot on this host
     * @return the slot; its id is null when no id can be found, and the consumer is then a dynamic member
     */
    static InstanceSlot claim(String groupId, String configured, Path directory) {
        if (!configured.isEmpty()) {
            return new InstanceSlot(configured, null);
        }
        String host = hostName();
        if (host == null) {
            log.warn(
                    "cannot tell this host's name; group {} is joined without static membership, so a restarted "
                            + "process waits for the old one's session to time out (set instance.id to avoid it)",
                    groupId);
            return new InstanceSlot(null, null);
        }
        for (int slot = 0; slot < MOST_SLOTS; slot++) {
            FileLock lock = tryLock(directory.resolve("lapse-" + fileSafe(groupId) + "-" + slot + ".lock"));
            if (lock != null) {
                return new InstanceSlot(host + "-" + slot, lock);
            }
        }
        throw new IllegalStateException("no free instance slot for group " + groupId + " in " + directory);
    }

    public static InstanceSlot claim(String groupId, String configured) {
        return claim(groupId, configured, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** @return the lock, or null when another consumer holds it or the file cannot be used */
    private static FileLock tryLock(Path file) {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
            }
            return lock;
        } catch (OverlappingFileLockException | IOException e) {
            // held by a consumer of this JVM, or a file of another user: either way not ours to take
            closeQuietly(channel);
            return null;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("closing a lock file failed", e);
            }
        }
    }

    private static String fileSafe(String groupId) {
        String safe = groupId.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.length() > 64 ? safe.substring(0, 64) + "-" + Integer.toHexString(groupId.hashCode()) : safe;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            String fromEnvironment = System.getenv("HOSTNAME");
            return fromEnvironment == null || fromEnvironment.isBlank() ? null : fromEnvironment;
        }
    }

    /** The group.instance.id to present, or null for dynamic membership. */
    public String id() {
        return id;
    }

    /** Frees the slot for the next consumer of the group on this host; idempotent. */
    @Override
    public void close() {
        if (lock != null) {
            closeQuietly(lock.channel());
        }
    }
}
