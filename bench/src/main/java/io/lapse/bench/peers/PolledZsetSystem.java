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
final class PolledZsetSystem extends OnRedis {

    private static final String KEY = "due";
    private static final long POLL_MILLIS = 1_000;
    private static final long TIMEOUT_SECONDS = 30;

    private final RedisLink link;
    private final RedisLink pollerLink;
    private final Loop poller;

    private PolledZsetSystem(RedisHost host, Fires fires) {
        super(host);
        this.link = RedisLink.open(host.uri());
        this.pollerLink = RedisLink.open(host.uri());
        this.poller = Loop.start("peers-zset-poller", () -> poll(fires));
    }

    static PeerSystem start(Fires fires) {
        return new PolledZsetSystem(RedisHost.start(), fires);
    }

    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException {
        poller.check();
        for (int i = 0; i < count; i++) {
            String member = EntityIds.of(entities[i]);
            link.send(redis -> redis.zadd(KEY, (double) deadlineMillis, member));
        }
    }

    private void poll(Fires fires) throws Exception {
        RedisAsyncCommands<String, String> redis = pollerLink.async();
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

    @Override
    public void close() {
        poller.close();
        pollerLink.close();
        link.close();
        host.close();
    }
}
