package io.lapse.bench.peers.redis;

import io.lapse.bench.peers.server.OnRedis;
import io.lapse.bench.peers.server.RedisHost;
import io.lapse.bench.peers.system.EntityIds;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.Loop;
import io.lapse.bench.peers.system.PeerSystem;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.SingleServerConfig;

/**
 * Redisson's {@code RDelayedQueue} as its users debounce: every heartbeat removes the entity's element and offers it
 * again with the new delay; a consumer takes what falls due from the destination queue. Commands are sent
 * asynchronously, as many in flight as Redisson's connection pool has connections: a command holds a connection until
 * it is answered, and one that waits longer than Redisson's timeout for a connection fails ("Unable to acquire
 * connection"), which is what the run of 2026-11-25 with 20,000 in flight against the default pool of 64 reported.
 */
public final class RedissonSystem extends OnRedis {

    private static final String QUEUE = "heartbeats";
    private static final long POLL_MILLIS = 100;

    private final RedissonClient redisson;
    private final RBlockingQueue<String> due;
    private final RDelayedQueue<String> delayed;
    private final Semaphore window;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Loop consumer;

    private RedissonSystem(RedisHost host, RedissonClient redisson, int connections, Fires fires) {
        super(host);
        this.redisson = redisson;
        this.window = new Semaphore(connections);
        this.due = redisson.getBlockingQueue(QUEUE);
        this.delayed = redisson.getDelayedQueue(due);
        this.consumer = Loop.start("peers-redisson-consumer", () -> consume(fires));
    }

    public static PeerSystem start(Fires fires) {
        RedisHost host = RedisHost.start();
        try {
            Config config = new Config();
            SingleServerConfig server = config.useSingleServer().setAddress(host.uri());
            return new RedissonSystem(host, Redisson.create(config), server.getConnectionPoolSize(), fires);
        } catch (RuntimeException e) {
            host.close();
            throw e;
        }
    }

    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException {
        consumer.check();
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("Redisson failed a re-arm", failed);
        }
        for (int i = 0; i < count; i++) {
            String id = EntityIds.of(entities[i]);
            window.acquire();
            delayed.removeAsync(id)
                    .thenCompose(removed -> delayed.offerAsync(
                            id, Math.max(0, deadlineMillis - System.currentTimeMillis()), TimeUnit.MILLISECONDS))
                    .whenComplete((ignored, error) -> {
                        if (error != null) {
                            failure.compareAndSet(null, error);
                        }
                        window.release();
                    });
        }
    }

    private void consume(Fires fires) throws InterruptedException {
        String id = due.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
        if (id != null) {
            fires.fired(EntityIds.indexOf(id), System.currentTimeMillis());
        }
    }

    @Override
    public void close() {
        consumer.close();
        delayed.destroy();
        redisson.shutdown();
        host.close();
    }
}
