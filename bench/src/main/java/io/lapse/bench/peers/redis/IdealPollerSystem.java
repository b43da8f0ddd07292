package io.lapse.bench.peers.redis;

import io.lapse.bench.peers.server.RedisHost;
import io.lapse.bench.peers.system.EntityIds;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.PeerSystem;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.ZAddArgs;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor of any Redis design: re-arms as pipelined {@code ZADD GT} of many members per command, and one poller
 * that claims what is due with a Lua script (read and remove in one step) and otherwise sleeps until the head's score.
 * No Kafka, no watermark: it fires on time even for entities whose heartbeats wait unread somewhere.
 */
public final class IdealPollerSystem extends PolledSortedSet {

    private static final String[] KEYS = {KEY};
    private static final int CLAIM_LIMIT = 1_000;
    /** With nothing armed, how soon to look again */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Claims up to ARGV[2] members due by ARGV[1]; returns them and, last, the head's score after the claim ("" if none) */
    private static final String CLAIM = """
            local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
            if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
            local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
            due[#due + 1] = head[2] or ''
            return due
            """;

    private IdealPollerSystem(RedisHost host, Fires fires) {
        super(host, "peers-ideal-poller", fires);
    }

    public static PeerSystem start(Fires fires) {
        return new IdealPollerSystem(RedisHost.start(), fires);
    }

    @Override
    public void rearm(int[] entities, int count, long deadlineMillis) throws InterruptedException {
        checkPoller();
        Object[] scoresAndMembers = new Object[2 * count];
        for (int i = 0; i < count; i++) {
            scoresAndMembers[2 * i] = (double) deadlineMillis;
            scoresAndMembers[2 * i + 1] = EntityIds.of(entities[i]);
        }
        link.send(redis -> redis.zadd(KEY, ZAddArgs.Builder.gt(), scoresAndMembers));
    }

    /** One claim, then a sleep until the head's score unless the claim was full. */
    @Override
    protected void poll(Fires fires) throws Exception {
        List<String> claimed = pollerLink
                .async()
                .<List<String>>eval(
                        CLAIM,
                        ScriptOutputType.MULTI,
                        KEYS,
                        Long.toString(System.currentTimeMillis()),
                        Integer.toString(CLAIM_LIMIT))
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
}
