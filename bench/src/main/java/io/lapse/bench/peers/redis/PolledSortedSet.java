package io.lapse.bench.peers.redis;

import io.lapse.bench.peers.server.OnRedis;
import io.lapse.bench.peers.server.RedisHost;
import io.lapse.bench.peers.server.RedisLink;
import io.lapse.bench.peers.system.Fires;
import io.lapse.bench.peers.system.Loop;

/**
 * A design that keeps the deadlines in one sorted set: re-arms are pipelined down one connection, and a poller on a
 * thread and a connection of its own takes what is due. Closing stops the poller before its connection goes, so that
 * the close does not show as a poller failure.
 *
 * <p>The poller starts in this constructor, so a subclass must not read fields of its own in {@link #poll}.
 */
abstract class PolledSortedSet extends OnRedis {

    protected static final String KEY = "due";
    protected static final long TIMEOUT_SECONDS = 30;

    protected final RedisLink link;
    protected final RedisLink pollerLink;
    private final Loop poller;

    protected PolledSortedSet(RedisHost host, String pollerName, Fires fires) {
        super(host);
        this.link = RedisLink.open(host.uri());
        this.pollerLink = RedisLink.open(host.uri());
        this.poller = Loop.start(pollerName, () -> poll(fires));
    }

    /** One round of the poller: fire what is due, then wait as the design does. */
    protected abstract void poll(Fires fires) throws Exception;

    /** Called at every re-arm: a dead poller fails the run instead of showing as missed fires. */
    protected final void checkPoller() {
        poller.check();
    }

    @Override
    public void close() {
        poller.close();
        pollerLink.close();
        link.close();
        host.close();
    }
}
