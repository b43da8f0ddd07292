package io.lapse.faults.chaos;

import io.lapse.devstack.RedisServer;
import io.lapse.faults.lab.Relay;
import io.lapse.faults.waiting.Waiting;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A redis-server with a replica, both without persistence, as a small production Redis runs; Lapse reaches the master
 * through a relay ({@link #lapseLink()}), as through a virtual IP that failover moves, and the replica replicates
 * through another, which can hold the replication stream back so that the replica lags. The lab's own commands go
 * straight to the servers.
 */
final class RedisPair implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisPair.class);

    private final Relay lapseLink;
    private final Relay replicationLink;
    private RedisServer master; // guarded by this
    private RedisServer replica; // guarded by this

    private RedisPair(RedisServer master, RedisServer replica, Relay lapseLink, Relay replicationLink) {
        this.master = master;
        this.replica = replica;
        this.lapseLink = lapseLink;
        this.replicationLink = replicationLink;
    }

    /**
     * Both servers start as masters and the replica is told to replicate by command, not by its command line, so that
     * whichever is master after a promotion comes back from a restart as a master, empty.
     */
    static RedisPair start() {
        RedisServer master = RedisServer.start();
        Relay replicationLink = Relay.start("redis-replication", master.port());
        RedisServer replica = RedisServer.start();
        on(replica, redis -> redis.replicaof("127.0.0.1", replicationLink.port()));
        Relay lapseLink = Relay.start("redis", master.port());
        return new RedisPair(master, replica, lapseLink, replicationLink);
    }

    /** What Lapse's redis.uri names. */
    String uri() {
        return "redis://127.0.0.1:" + lapseLink.port();
    }

    Relay lapseLink() {
        return lapseLink;
    }

    /**
     * Restarted without persistence: every key lost, and the replica, resynchronised from it, loses them too; unless
     * the master was the replica before a promotion, when it loads the snapshot of its last full sync (a replica
     * writes it to disk, repl-diskless-load being off by default): a stale snapshot restored, keys, epochs and all.
     */
    synchronized void restartMaster() {
        master.restart();
    }

    synchronized void flushAll() {
        onMaster(RedisCommands::flushall);
    }

    /** Deletes the due sets of every timer shard under this key prefix; every other key stays. */
    synchronized int deleteDueSets(String keyPrefix) {
        int[] deleted = {0};
        onMaster(redis ->
                ScanIterator.scan(
                                redis,
                                ScanArgs.Builder.matches(keyPrefix + ":{*}:due").limit(1000))
                        .stream()
                        .toList()
                        .forEach(key -> deleted[0] += redis.del(key).intValue()));
        return deleted[0];
    }

    /**
     * Holds the replication stream back for {@code lag} while Lapse writes on, then promotes the replica and moves
     * Lapse's link to it (its connections to the old master cut), as a failover after a lost link does; the old
     * master becomes the new one's replica and catches up from it, so that the pair is whole for the next strike.
     */
    synchronized void promoteAfterLag(Duration lag) {
        replicationLink.stall();
        try {
            Waiting.sleep(lag);
            on(replica, RedisCommands::replicaofNoOne);
            lapseLink.retarget(replica.port());
        } finally {
            replicationLink.retarget(replica.port());
            replicationLink.resume();
        }
        RedisServer promoted = replica;
        replica = master;
        master = promoted;
        on(replica, redis -> redis.replicaof("127.0.0.1", replicationLink.port()));
        log.info(
                "redis replica on port {} promoted; the old master on port {} replicates it",
                master.port(),
                replica.port());
    }

    private void onMaster(Consumer<RedisCommands<String, String>> command) {
        on(master, command);
    }

    private static void on(RedisServer server, Consumer<RedisCommands<String, String>> command) {
        RedisClient client = RedisClient.create(server.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            command.accept(connection.sync());
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Override
    public synchronized void close() {
        lapseLink.close();
        replicationLink.close();
        replica.close();
        master.close();
    }
}
