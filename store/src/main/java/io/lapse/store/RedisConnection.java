package io.lapse.store;

import io.lapse.config.RedisSettings;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/** One connection to standalone Redis or a Redis Cluster; every Lapse command goes through the same async API. */
public final class RedisConnection implements AutoCloseable {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private final String uri;
    private final RedisClient standalone;
    private final RedisClusterClient cluster;
    private final StatefulRedisConnection<String, String> standaloneConnection;
    private final StatefulRedisClusterConnection<String, String> clusterConnection;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisConnection(String uri, RedisClient standalone, RedisClusterClient cluster) {
        this.uri = uri;
        this.standalone = standalone;
        this.cluster = cluster;
        this.standaloneConnection = standalone == null ? null : standalone.connect(StringCodec.UTF8);
        this.clusterConnection = cluster == null ? null : cluster.connect(StringCodec.UTF8);
    }

    public static RedisConnection open(RedisSettings settings) {
        return open(settings, COMMAND_TIMEOUT);
    }

    /**
     * @param timeout how long connecting and each command may take; on-call commands give up sooner than services
     * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached
     */
    public static RedisConnection open(RedisSettings settings, Duration timeout) {
        RedisURI uri = RedisURI.create(settings.uri());
        TimeoutOptions timeouts = TimeoutOptions.enabled(timeout);
        SocketOptions socket = SocketOptions.builder().connectTimeout(timeout).build();
        if (settings.cluster()) {
            RedisClusterClient client = RedisClusterClient.create(uri);
            client.setOptions(ClusterClientOptions.builder().timeoutOptions(timeouts).socketOptions(socket)
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enableAllAdaptiveRefreshTriggers().enablePeriodicRefresh(Duration.ofSeconds(30)).build())
                    .build());
            return connected(() -> new RedisConnection(settings.uri(), null, client), client::shutdown);
        }
        RedisClient client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder().timeoutOptions(timeouts).socketOptions(socket).build());
        return connected(() -> new RedisConnection(settings.uri(), client, null), client::shutdown);
    }

    /** A client whose first connection failed would keep its threads: shut it down before passing the failure on. */
    private static RedisConnection connected(Supplier<RedisConnection> connect, Runnable shutdown) {
        try {
            return connect.get();
        } catch (RuntimeException e) {
            shutdown.run();
            throw e;
        }
    }

    public boolean isCluster() {
        return cluster != null;
    }

    public RedisClusterAsyncCommands<String, String> async() {
        return cluster != null ? clusterConnection.async() : standaloneConnection.async();
    }

    /** A new Pub/Sub connection; in a cluster, classic PUBLISH reaches subscribers on any node. */
    public StatefulRedisPubSubConnection<String, String> pubSub() {
        return cluster != null ? cluster.connectPubSub(StringCodec.UTF8) : standalone.connectPubSub(StringCodec.UTF8);
    }

    /** The cluster client, for work that must visit every master (keyspace notifications); null when standalone. */
    public RedisClusterClient clusterClient() {
        return cluster;
    }

    /** Commands bound to each master: the one server when standalone, every upstream node of a cluster. */
    public List<RedisClusterAsyncCommands<String, String>> eachMaster() {
        if (cluster == null) {
            return List.<RedisClusterAsyncCommands<String, String>>of(standaloneConnection.async());
        }
        return clusterConnection.getPartitions().stream()
                .filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM))
                .<RedisClusterAsyncCommands<String, String>>map(node ->
                        clusterConnection.getConnection(node.getNodeId()).async())
                .toList();
    }

    /** The database index the URI selects (always 0 in a cluster). */
    public int database() {
        return cluster == null ? RedisURI.create(uri).getDatabase() : 0;
    }

    public boolean isOpen() {
        return cluster != null ? clusterConnection.isOpen() : standaloneConnection.isOpen();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (cluster != null) {
            clusterConnection.close();
            cluster.shutdown();
        } else {
            standaloneConnection.close();
            standalone.shutdown();
        }
    }
}
