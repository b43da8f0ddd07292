package io.lapse.store.internal;

import io.lapse.store.RedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis's "key expired" notifications, from every master: in a cluster each node announces only its own keys.
 * Notifications must be enabled on the servers (notify-keyspace-events with E and x); {@link #ensure()} turns them on
 * and subscribes again, so that a restarted server or a new master is covered at the next call, once a second.
 * Lettuce subscribes again by itself after a reconnect.
 */
public final class KeyspaceNotifications implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KeyspaceNotifications.class);
    private static final long TIMEOUT_SECONDS = 10;
    // a restarted Redis forgets notify-keyspace-events: expiries in between are lost, so look often
    private static final long ENSURE_EVERY_MS = 1_000;

    private final RedisConnection redis;
    private final String channel;
    private final StatefulRedisPubSubConnection<String, String> standalone;
    private final StatefulRedisClusterPubSubConnection<String, String> cluster;
    private final ScheduledExecutorService ensuring = Executors.newSingleThreadScheduledExecutor(
            runnable -> new Thread(runnable, "lapse-keyspace-notifications"));

    private volatile boolean closed;

    /** Subscribes before it returns (when Redis answers), and keeps notifications on and subscribed until closed. */
    public static KeyspaceNotifications start(RedisConnection redis, Consumer<String> expiredKey) {
        KeyspaceNotifications notifications = new KeyspaceNotifications(redis, expiredKey);
        notifications.ensureLogged();
        notifications.ensuring.scheduleWithFixedDelay(
                notifications::ensureLogged, ENSURE_EVERY_MS, ENSURE_EVERY_MS, TimeUnit.MILLISECONDS);
        return notifications;
    }

    private KeyspaceNotifications(RedisConnection redis, Consumer<String> expiredKey) {
        this.redis = redis;
        this.channel = "__keyevent@" + redis.database() + "__:expired";
        if (redis.isCluster()) {
            standalone = null;
            cluster = redis.clusterClient().connectPubSub(StringCodec.UTF8);
            cluster.setNodeMessagePropagation(true);
            cluster.addListener(new RedisClusterPubSubAdapter<>() {
                @Override
                public void message(RedisClusterNode node, String from, String key) {
                    expiredKey.accept(key);
                }
            });
        } else {
            cluster = null;
            standalone = redis.pubSub();
            standalone.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String from, String key) {
                    expiredKey.accept(key);
                }
            });
        }
    }

    private void ensureLogged() {
        try {
            ensure();
        } catch (Exception e) {
            if (closed) {
                return;
            }
            log.warn(
                    "cannot enable or subscribe to keyspace notifications, trying again in {} ms: {}",
                    ENSURE_EVERY_MS,
                    e.toString());
        }
    }

    /** Enables expired-key events on every master and subscribes to them; safe to repeat. */
    private void ensure() throws Exception {
        for (RedisClusterAsyncCommands<String, String> master : redis.eachMaster()) {
            Map<String, String> current =
                    master.configGet("notify-keyspace-events").get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            String flags = current.getOrDefault("notify-keyspace-events", "");
            if (!flags.contains("E") || !(flags.contains("x") || flags.contains("A"))) {
                String wanted = flags + (flags.contains("E") ? "" : "E") + (flags.contains("x") ? "" : "x");
                master.configSet("notify-keyspace-events", wanted).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                log.info("enabled keyspace notifications (notify-keyspace-events={})", wanted);
            }
        }
        if (cluster != null) {
            cluster.sync().upstream().commands().subscribe(channel);
        } else {
            standalone.sync().subscribe(channel);
        }
    }

    @Override
    public void close() {
        closed = true;
        ensuring.shutdownNow();
        if (cluster != null) {
            cluster.close();
        } else {
            standalone.close();
        }
    }
}
