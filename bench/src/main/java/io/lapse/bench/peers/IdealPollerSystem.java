package io.lapse.bench.peers;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor of any Redis design: re-arms as pipelined {@code ZADD GT} of many members per command, and one poller
 * that claims what is due with a Lua script (read and remove in one step) and otherwise sleeps until the head's score.
 * No Kafka, no watermark: it fires on time even for entities whose heartbeats wait unread somewhere.
 */
final class IdealPollerSystem implements PeerSystem {

    private static final String KEY = "due";
    private static final int CLAIM_LIMIT = 1_000;
    /** With nothing armed, how soon to look again */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private static final long TIMEOUT_SECONDS = 30;
    /** Claims up to ARGV[2] members due by ARGV[1]; returns them and, last, the head's score after the claim ("" if none) */
    private static final String CLAIM = """
            local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
            if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
            local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
            due[#due + 1] = head[2] or ''
            return due
            """;

    private final RedisHost host;
    private final RedisLink link;
    private final RedisLink pollerLink;
    private final Fires fires;
    private final Thread poller;
    private volatile boolean running = true;

    private IdealPollerSystem(RedisHost host, RedisLink link, RedisLink pollerLink, Fires fires) {
        this.host = host;
        this.link = link;
        this.pollerLink = pollerLink;
        this.fires = fires;
        this.poller = new Thread(this::poll, "peers-ideal-poller");
    }

    static PeerSystem start(Fires fires) {
        RedisHost host = RedisHost.start();
        IdealPollerSystem system =
                new IdealPollerSystem(host, RedisLink.open(host.uri()), RedisLink.open(host.uri()), fires);
        system.poller.start();
        return system;
    }

    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException {
        Object[] scoresAndMembers = new Object[2 * count];
        for (int i = 0; i < count; i++) {
            scoresAndMembers[2 * i] = (double) deadlineMillis;
            scoresAndMembers[2 * i + 1] = EntityIds.of(entities[i]);
        }
        link.send(redis -> redis.zadd(KEY, ZAddArgs.Builder.gt(), scoresAndMembers));
    }

    private void poll() {
        RedisAsyncCommands<String, String> redis = pollerLink.async();
        String[] keys = {KEY};
        String limit = Integer.toString(CLAIM_LIMIT);
        try {
            while (running) {
                List<String> claimed = redis.<List<String>>eval(
                                CLAIM, ScriptOutputType.MULTI, keys, Long.toString(System.currentTimeMillis()), limit)
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                long now = System.currentTimeMillis();
                int members = claimed.size() - 1;
                for (int i = 0; i < members; i++) {
                    fires.fired(EntityIds.indexOf(claimed.get(i)), now);
                }
                if (members < CLAIM_LIMIT) {
                    sleepUntilHead(claimed.get(members));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (running) {
                throw new IllegalStateException("the ideal poller failed", e);
            }
        }
    }

    /** A re-arm only moves a member later, so the head's score is the earliest anything can fall due. */
    private static void sleepUntilHead(String headScore) {
        if (headScore.isEmpty()) {
            LockSupport.parkNanos(IDLE_NANOS);
            return;
        }
        long waitMillis = (long) Double.parseDouble(headScore) - System.currentTimeMillis();
        if (waitMillis > 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(waitMillis));
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
        LockSupport.unpark(poller);
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
