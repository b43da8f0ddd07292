package io.lapse.timer;

/**
 * Redis's clock as last seen in a claim, carried forward with this host's monotonic clock. Claims themselves read
 * Redis TIME; the estimate only decides how long to sleep and which shards to ask.
 */
final class RedisClockEstimate {

    private volatile long redisMillis;
    private volatile long seenAtNanos;

    RedisClockEstimate() {
        observe(System.currentTimeMillis());
    }

    void observe(long redisNow) {
        seenAtNanos = System.nanoTime();
        redisMillis = redisNow;
    }

    long now() {
        return redisMillis + (System.nanoTime() - seenAtNanos) / 1_000_000;
    }
}
