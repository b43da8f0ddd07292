package io.lapse.store;

import io.lapse.config.ConfigException;
import io.lapse.config.RedisSettings;
import io.lapse.config.RedisTls;
import io.lapse.config.Secrets;
import io.lapse.lifecycle.StartupRetry;
import io.lapse.store.internal.AsyncOnlyClients;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One connection to standalone Redis or a Redis Cluster; every Lapse command goes through the same async API. The URI
 * carries an ACL user and password ({@code redis://user:password@host:6379}); {@code rediss://} connects with TLS,
 * trusting the configured truststore.
 */
public final class RedisConnection implements AutoCloseable {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Lettuce's default backs off up to 30 s between reconnects: after Redis restarted, every service would stay
     * disconnected for as long, the compensator too, which must notice the loss and rebuild at once.
     */
    private static final Duration LONGEST_RECONNECT_DELAY = Duration.ofMillis(500);
    /** A client that never connected has nothing in flight to wait for. */
    private static final Duration FAILED_SHUTDOWN = Duration.ofSeconds(2);

    private final RedisURI uri;
    private final ClientResources resources;
    private final RedisClient standalone;
    private final RedisClusterClient cluster;
    private final StatefulRedisConnection<String, String> standaloneConnection;
    private final StatefulRedisClusterConnection<String, String> clusterConnection;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisConnection(
            RedisURI uri,
            ClientResources resources,
            RedisClient standalone,
            StatefulRedisConnection<String, String> standaloneConnection,
            RedisClusterClient cluster,
            StatefulRedisClusterConnection<String, String> clusterConnection) {
        this.uri = uri;
        this.resources = resources;
        this.standalone = standalone;
        this.cluster = cluster;
        this.standaloneConnection = standaloneConnection;
        this.clusterConnection = clusterConnection;
    }

    /** Connects once; fails at once when Redis does not answer. */
    public static RedisConnection open(RedisSettings settings) {
        return open(settings, new StartupRetry(), e -> false);
    }

    /** Connects, waiting for Redis while it does not answer or refuses the credentials (start order does not matter). */
    public static RedisConnection open(RedisSettings settings, StartupRetry startup) {
        return open(settings, startup, e -> e instanceof RedisException);
    }

    private static RedisConnection open(RedisSettings settings, StartupRetry startup, Predicate<Exception> retryable) {
        RedisURI uri = parse(settings);
        TimeoutOptions timeouts = TimeoutOptions.enabled(COMMAND_TIMEOUT);
        SslOptions ssl = sslOptions(settings.tls());
        String what = "Redis at " + settings.displayUri();
        // Lettuce times every command by default (a LatencyUtils histogram per command type): nobody reads it, and in
        // an expiry storm the timer paid for it on every claim and acknowledgement
        ClientResources resources = DefaultClientResources.builder()
                .commandLatencyRecorder(CommandLatencyRecorder.disabled())
                .reconnectDelay(Delay.exponential(Duration.ZERO, LONGEST_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS))
                .build();
        if (settings.cluster()) {
            RedisClusterClient client = AsyncOnlyClients.cluster(resources, uri);
            client.setOptions(ClusterClientOptions.builder()
                    .timeoutOptions(timeouts)
                    .sslOptions(ssl)
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enableAllAdaptiveRefreshTriggers()
                            .enablePeriodicRefresh(Duration.ofSeconds(30))
                            .build())
                    .build());
            return connected(
                    () -> shutDown(client, resources),
                    () -> new RedisConnection(
                            uri,
                            resources,
                            null,
                            null,
                            client,
                            startup.until(what, () -> client.connect(StringCodec.UTF8), retryable)));
        }
        RedisClient client = AsyncOnlyClients.standalone(resources, uri);
        client.setOptions(
                ClientOptions.builder().timeoutOptions(timeouts).sslOptions(ssl).build());
        return connected(
                () -> shutDown(client, resources),
                () -> new RedisConnection(
                        uri,
                        resources,
                        client,
                        startup.until(what, () -> client.connect(StringCodec.UTF8), retryable),
                        null,
                        null));
    }

    private static void shutDown(AbstractRedisClient client, ClientResources resources) {
        client.shutdown(Duration.ZERO, FAILED_SHUTDOWN);
        resources.shutdown();
    }

    /** Shuts the client (and its threads) down when connecting fails for good. */
    private static RedisConnection connected(Runnable shutdown, Supplier<RedisConnection> connect) {
        try {
            return connect.get();
        } catch (RuntimeException e) {
            shutdown.run();
            throw e;
        }
    }

    /** Lettuce's own parse errors repeat the URI, password included: name the key and mask instead. */
    private static RedisURI parse(RedisSettings settings) {
        try {
            return RedisURI.create(settings.uri());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("redis.uri '" + settings.displayUri() + "' is not a Redis URI Lettuce accepts: "
                    + Secrets.scrub(String.valueOf(e.getMessage()).replace(settings.uri(), settings.displayUri())));
        }
    }

    private static SslOptions sslOptions(RedisTls tls) {
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
        tls.truststore().ifPresent(file -> ssl.truststore(file.toFile(), tls.truststorePassword()));
        tls.keystore()
                .ifPresent(file ->
                        ssl.keystore(file.toFile(), tls.keystorePassword().toCharArray()));
        return ssl.build();
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
        return cluster == null ? uri.getDatabase() : 0;
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
