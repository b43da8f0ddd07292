package io.lapse.bench.peers;

import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The seed design: {@code ZADD} per heartbeat into one sorted set, and a poller that every second reads what is due
 * with {@code ZRANGEBYSCORE} and removes it with one {@code ZREM} per member, firing the members it removed.
 */
final class PolledZsetSystem implements PeerSystem {

    private static final String KEY = "due";
    private static final long POLL_MILLIS = 1_000;
    private static final long TIMEOUT_SECONDS = 30;

    private final RedisHost host;
    private final RedisLink link;
    private final RedisLink pollerLink;
    private final Fires fires;
    private final Thread poller;
    private volatile boolean running = true;

    private PolledZsetSystem(RedisHost host, RedisLink link, RedisLink pollerLink, Fires fires) {
        this.host = host;
        this.link = link;
        this.pollerLink = pollerLink;
        this.fires = fires;
        this.poller = new Thread(this::poll, "peers-zset-poller");
    }

    static PeerSystem start(Fires fires) {
        RedisHost host = RedisHost.start();
        PolledZsetSystem system =
                new PolledZsetSystem(host, RedisLink.open(host.uri()), RedisLink.open(host.uri()), fires);
        system.poller.start();
        return system;
    }

    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            String member = EntityIds.of(entities[i]);
            link.send(redis -> redis.zadd(KEY, (double) deadlineMillis, member));
        }
    }

    private void poll() {
        RedisAsyncCommands<String, String> redis = pollerLink.async();
        try {
            while (running) {
                long now = System.currentTimeMillis();
                List<String> due = redis.zrangebyscore(KEY, Range.create(Double.NEGATIVE_INFINITY, (double) now))
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                List<RedisFuture<Long>> removals = new ArrayList<>(due.size());
                for (String member : due) {
                    removals.add(redis.zrem(KEY, member));
                }
                for (int i = 0; i < due.size(); i++) {
                    // only the poller that removed a member fires it
                    if (removals.get(i).get(TIMEOUT_SECONDS, TimeUnit.SECONDS) == 1) {
                        fires.fired(EntityIds.indexOf(due.get(i)), System.currentTimeMillis());
                    }
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (running) {
                throw new IllegalStateException("the sorted-set poller failed", e);
            }
        }
    }

    @Override
    public long memoryBytes() throws Exception {
        return host.memoryBytes();
    }

    @Override
    public double serverCpuSeconds() {
        return host.cpuSeconds();
    }

    @Override
    public void close() {
        running = false;
        poller.interrupt();
        try {
            poller.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pollerLink.close();
        link.close();
        host.close();
    }
}
