package io.lapse.bench.peers.redis;

import io.lapse.bench.peers.server.OnRedis;
import io.lapse.bench.peers.server.RedisHost;
import io.lapse.bench.peers.server.RedisLink;
import io.lapse.bench.peers.system.EntityIds;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.PeerSystem;
import io.lettuce.core.SetArgs;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.concurrent.TimeUnit;

/**
 * The seed design: one key per entity set with {@code SET … PX T} at every heartbeat, and the application subscribed
 * to {@code __keyevent@0__:expired}. Redis announces a key when its expiry cycle deletes it, not at its deadline.
 */
public final class TtlKeysSystem extends OnRedis {

    private static final String CHANNEL = "__keyevent@0__:expired";
    private static final String PREFIX = "ttl:";
    private static final long TIMEOUT_SECONDS = 30;

    private final RedisLink link;
    private final StatefulRedisPubSubConnection<String, String> subscription;

    private TtlKeysSystem(RedisHost host, RedisLink link, Fires fires) throws Exception {
        super(host);
        this.link = link;
        link.async().configSet("notify-keyspace-events", "Ex").get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        this.subscription = link.client().connectPubSub();
        subscription.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String key) {
                if (key.startsWith(PREFIX)) {
                    fires.fired(EntityIds.indexOf(key.substring(PREFIX.length())), System.currentTimeMillis());
                }
            }
        });
        subscription.async().subscribe(CHANNEL).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    public static PeerSystem start(Fires fires) throws Exception {
        RedisHost host = RedisHost.start();
        RedisLink link = null;
        try {
            link = RedisLink.open(host.uri());
            return new TtlKeysSystem(host, link, fires);
        } catch (Exception e) {
            if (link != null) {
                link.close();
            }
            host.close();
            throw e;
        }
    }

    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException {
        SetArgs expiry = SetArgs.Builder.pxAt(deadlineMillis);
        for (int i = 0; i < count; i++) {
            String key = PREFIX + EntityIds.of(entities[i]);
            link.send(redis -> redis.set(key, "", expiry));
        }
    }

    @Override
    public void close() {
        subscription.close();
        link.close();
        host.close();
    }
}
