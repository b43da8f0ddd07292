package io.lapse.store;

import io.lapse.config.RedisSettings;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
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
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** One connection to standalone Redis or a Redis Cluster; every Lapse command goes through the same async API. */
public final class RedisConnection implements AutoCloseable {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Lettuce's default backs off up to 30 s between reconnects: after Redis restarted, every service would stay
     * disconnected for as long, the compensator too, which must notice the loss and rebuild at once.
     */
    private static final Duration LONGEST_RECONNECT_DELAY = Duration.ofMillis(500);

    private final String uri;
    private final RedisClient standalone;
    private final RedisClusterClient cluster;
    private final ClientResources resources;
    private final StatefulRedisConnection<String, String> standaloneConnection;
    private final StatefulRedisClusterConnection<String, String> clusterConnection;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisConnection(String uri, RedisClient standalone, RedisClusterClient cluster, ClientResources resources) {
        this.uri = uri;
        this.resources = resources;
        this.standalone = standalone;
        this.cluster = cluster;
        this.standaloneConnection = standalone == null ? null : standalone.connect(StringCodec.UTF8);
        this.clusterConnection = cluster == null ? null : cluster.connect(StringCodec.UTF8);
    }

    public static RedisConnection open(RedisSettings settings) {
        RedisURI uri = RedisURI.create(settings.uri());
        TimeoutOptions timeouts = TimeoutOptions.enabled(COMMAND_TIMEOUT);
        ClientResources resources = DefaultClientResources.builder().reconnectDelay(Delay.exponential(Duration.ZERO,
                LONGEST_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS)).build();
        if (settings.cluster()) {
            RedisClusterClient client = RedisClusterClient.create(resources, uri);
            client.setOptions(ClusterClientOptions.builder().timeoutOptions(timeouts)
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enableAllAdaptiveRefreshTriggers().enablePeriodicRefresh(Duration.ofSeconds(30)).build())
                    .build());
            return new RedisConnection(settings.uri(), null, client, resources);
        }
        RedisClient client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder().timeoutOptions(timeouts).build());
        return new RedisConnection(settings.uri(), client, null, resources);
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
        resources.shutdown();
    }
}
