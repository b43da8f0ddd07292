package io.lapse.devstack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A real Redis Cluster of N masters (no replicas) on 127.0.0.1, each node its own redis-server. */
public final class RedisCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisCluster.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final List<String> CLUSTER_ARGS = List.of(
            "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", "5000");

    private final List<RedisServer> nodes;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    public static RedisCluster start(int masters) {
        if (masters < 1 || masters > ClusterFormation.SLOTS) {
            throw new IllegalArgumentException("masters must be between 1 and 16384, was " + masters);
        }
        long started = System.nanoTime();
        // one reservation for all nodes, so no two nodes collide on a client or bus port
        int[] ports = Ports.reserve(masters, true);
        List<Supplier<? extends RedisServer>> starters = new ArrayList<>();
        for (int port : ports) {
            // should another process take the port meanwhile, the retry needs a fresh one
            AtomicBoolean firstAttempt = new AtomicBoolean(true);
            IntSupplier portPicker = () -> firstAttempt.getAndSet(false) ? port : Ports.reserve(1, true)[0];
            starters.add(() -> RedisServer.start(RedisBinary.locate(), portPicker, CLUSTER_ARGS));
        }
        RedisCluster cluster = new RedisCluster(Parallel.startAll(starters));
        try {
            ClusterFormation.form(cluster.nodes, READY_TIMEOUT);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        log.info(
                "Redis cluster of {} masters ready at {} in {} ms",
                masters,
                cluster.nodeUris(),
                (System.nanoTime() - started) / 1_000_000);
        return cluster;
    }

    /** Seed URI for a cluster client; it discovers the other nodes from this one. */
    public String uri() {
        return nodes.get(0).uri();
    }

    public List<String> nodeUris() {
        return nodes.stream().map(RedisServer::uri).toList();
    }

    /** The node processes, for tests that kill or restart one of them. */
    public List<RedisServer> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        RuntimeException failure = null;
        for (RedisServer node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "RedisCluster" + nodeUris();
    }
}
