package io.lapse.bench.peers.server;

import io.lapse.bench.harness.ProcessCpu;
import io.lapse.devstack.RedisServer;

/** A fresh redis-server for one system, and the benchmark's own connection to it for its memory. */
public final class RedisHost implements AutoCloseable {

    public final RedisServer server;
    private final RedisLink link;

    private RedisHost(RedisServer server) {
        this.server = server;
        try {
            this.link = RedisLink.open(server.uri());
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    public static RedisHost start() {
        return new RedisHost(RedisServer.start());
    }

    public String uri() {
        return server.uri();
    }

    /** used_memory: what Redis allocated for data and overhead. */
    long memoryBytes() throws Exception {
        return link.usedMemory();
    }

    /** CPU seconds of the redis-server process so far. */
    public double cpuSeconds() {
        return ProcessCpu.seconds(server.pid());
    }

    @Override
    public void close() {
        link.close();
        server.close();
    }
}
