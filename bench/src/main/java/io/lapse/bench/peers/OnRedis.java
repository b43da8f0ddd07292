package io.lapse.bench.peers;

/** What every design on its own redis-server shares: its memory and its CPU are the server's. */
abstract class OnRedis implements PeerSystem {

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
