package io.lapse.bench.peers.server;

import io.lapse.bench.peers.system.PeerSystem;

/** What every design on its own redis-server shares: its memory and its CPU are the server's. */
public abstract class OnRedis implements PeerSystem {

    protected final RedisHost host;

    protected OnRedis(RedisHost host) {
        this.host = host;
    }

    @Override
    public long memoryBytes() throws Exception {
        return host.memoryBytes();
    }

    @Override
    public double serverCpuSeconds() {
        return host.cpuSeconds();
    }
}
