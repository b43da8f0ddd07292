package io.lapse.store.timers.internal;

import io.lapse.store.Listening;
import io.lapse.store.RedisConnection;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
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
 *
 * <p>Most managed Redis services refuse CONFIG. Then Lapse cannot see or set the flags, and proves instead that
 * notifications arrive: every few seconds it sets a canary key that expires at once and listens for it. While no
 * canary is heard, {@link #problem()} says what to configure, and the timer reports not ready: in ttl mode nothing
 * would fire.
 */
public final class KeyspaceNotifications implements Listening {

    private static final Logger log = LoggerFactory.getLogger(KeyspaceNotifications.class);
    private static final long TIMEOUT_SECONDS = 10;
    // a restarted Redis forgets notify-keyspace-events: expiries in between are lost, so look often
    private static final long ENSURE_EVERY_MS = 1_000;
    private static final long CANARY_EVERY_MS = 3_000;
    /** Two canaries may go unheard (one still expiring) before notifications count as off. */
    private static final long CANARY_UNHEARD_MS = 3 * CANARY_EVERY_MS;

    private final RedisConnection redis;
    private final String channel;
    private final StatefulRedisPubSubConnection<String, String> standalone;
    private final StatefulRedisClusterPubSubConnection<String, String> cluster;
    private final ScheduledExecutorService ensuring = Executors.newSingleThreadScheduledExecutor(
            runnable -> new Thread(runnable, "lapse-keyspace-notifications"));

    private final String canaryKey;
    private volatile boolean closed;
    private volatile String configRefused;
    private volatile long canarySentAt;
    private volatile long canaryHeardAt;

    /**
     * Subscribes before it returns (when Redis answers), and keeps notifications on and subscribed until closed.
     *
     * @param canaryKey a key of this deployment's own that nothing else writes, to prove notifications arrive
     */
    public static KeyspaceNotifications start(RedisConnection redis, String canaryKey, Consumer<String> expiredKey) {
        KeyspaceNotifications notifications = new KeyspaceNotifications(redis, canaryKey, expiredKey);
        notifications.ensureLogged();
        notifications.ensuring.scheduleWithFixedDelay(
                notifications::ensureLogged, ENSURE_EVERY_MS, ENSURE_EVERY_MS, TimeUnit.MILLISECONDS);
        return notifications;
    }

    private KeyspaceNotifications(RedisConnection redis, String canaryKey, Consumer<String> heard) {
        this.redis = redis;
        this.canaryKey = canaryKey;
        Consumer<String> expiredKey = key -> {
            if (key.equals(canaryKey)) {
                canaryHeardAt = System.currentTimeMillis();
            } else {
                heard.accept(key);
            }
        };
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
        String refused = null;
        for (RedisClusterAsyncCommands<String, String> master : redis.eachMaster()) {
            Map<String, String> current;
            try {
                current = master.configGet("notify-keyspace-events").get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RedisCommandExecutionException)) {
                    throw e;
                }
                refused = e.getCause().getMessage();
                continue;
            }
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
            standalone.async().subscribe(channel).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        if (refused != null && configRefused == null) {
            log.warn(
                    "Redis refuses CONFIG ({}): cannot check or turn on keyspace notifications; proving with a canary "
                            + "key that they arrive",
                    refused);
        }
        configRefused = refused;
        if (refused != null && System.currentTimeMillis() - canarySentAt >= CANARY_EVERY_MS) {
            canarySentAt = System.currentTimeMillis();
            redis.async().set(canaryKey, "canary", SetArgs.Builder.px(1)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Override
    public Optional<String> problem() {
        String refused = configRefused;
        if (refused == null || System.currentTimeMillis() - canaryHeardAt < CANARY_UNHEARD_MS) {
            return Optional.empty();
        }
        return Optional.of("timer.mode=ttl needs Redis keyspace notifications, and none arrive: Redis refuses CONFIG ("
                + refused + "), so Lapse cannot turn them on, and its canary key expired unannounced. Set "
                + "notify-keyspace-events to include E and x on the server (on a managed Redis: its parameter group "
                + "or console), or use timer.mode=zset");
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
