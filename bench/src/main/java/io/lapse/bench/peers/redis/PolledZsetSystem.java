package io.lapse.bench.peers.redis;

import io.lapse.bench.peers.server.RedisHost;
import io.lapse.bench.peers.system.EntityIds;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.PeerSystem;
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
public final class PolledZsetSystem extends PolledSortedSet {

    private static final long POLL_MILLIS = 1_000;

    private PolledZsetSystem(RedisHost host, Fires fires) {
        super(host, "peers-zset-poller", fires);
    }

    public static PeerSystem start(Fires fires) {
        return new PolledZsetSystem(RedisHost.start(), fires);
    }

    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException {
        checkPoller();
        for (int i = 0; i < count; i++) {
            String member = EntityIds.of(entities[i]);
            link.send(redis -> redis.zadd(KEY, (double) deadlineMillis, member));
        }
    }

    @Override
    protected void poll(Fires fires) throws Exception {
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
}
