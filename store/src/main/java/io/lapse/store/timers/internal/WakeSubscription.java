package io.lapse.store.timers.internal;

import io.lapse.store.Listening;
import io.lapse.store.RedisConnection;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens for ingest's "an earlier deadline was armed in shard N" messages. Pub/Sub may drop a message; the timer
 * asks every shard at least once a second anyway, so a lost wake costs latency, never an expiry. Lettuce subscribes
 * again by itself after a reconnect.
 */
public final class WakeSubscription implements Listening {

    private static final Logger log = LoggerFactory.getLogger(WakeSubscription.class);
    private static final long SUBSCRIBE_TIMEOUT_SECONDS = 10;

    private final StatefulRedisPubSubConnection<String, String> connection;

    public WakeSubscription(RedisConnection redis, String channel, IntConsumer wake) {
        this.connection = redis.pubSub();
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String from, String shard) {
                try {
                    wake.accept(Integer.parseInt(shard));
                } catch (NumberFormatException e) {
                    log.warn("ignoring a wake message that names no shard: {}", shard);
                }
            }
        });
        LettuceFutures.awaitOrCancel(
                connection.async().subscribe(channel), SUBSCRIBE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        connection.close();
    }
}
