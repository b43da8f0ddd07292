package io.lapse.bench.throughput;

import io.lapse.bench.load.OrderIds;
import io.lapse.bench.report.Rate;
import io.lapse.config.RedisSettings;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Redis half of ingest alone: the same number of deadlines, for the same orders, into the same per-shard sorted
 * sets, as plain pipelined {@code ZADD GT} commands of 500 members, without Lua, state or Kafka.
 */
final class ZaddBaseline {

    private static final int MEMBERS_PER_COMMAND = 500;
    private static final int IN_FLIGHT = 64;
    private static final long TIMEOUT_SECONDS = 60;

    private ZaddBaseline() {}

    static Rate run(String redisUri, String keyPrefix, int shards, long members, int orders, long ttlMillis)
            throws Exception {
        TimerKeys keys = new TimerKeys(keyPrefix, shards);
        String[] ids = new String[orders];
        int[] shardOf = new int[orders];
        for (int i = 0; i < orders; i++) {
            ids[i] = OrderIds.of(i);
            shardOf[i] = keys.shardOf(ids[i]);
        }
        // score, member, score, member, ...: the form ZADD takes on the wire
        List<List<Object>> pending = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            pending.add(new ArrayList<>(2 * MEMBERS_PER_COMMAND));
        }
        Semaphore window = new Semaphore(IN_FLIGHT);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (RedisConnection connection = RedisConnection.open(new RedisSettings(redisUri, false, keyPrefix))) {
            RedisClusterAsyncCommands<String, String> redis = connection.async();
            long started = System.nanoTime();
            long base = System.currentTimeMillis();
            for (long i = 0; i < members; i++) {
                int order = (int) (i % orders);
                List<Object> batch = pending.get(shardOf[order]);
                batch.add((double) (base + i / orders * 1_000 + ttlMillis));
                batch.add(ids[order]);
                if (batch.size() == 2 * MEMBERS_PER_COMMAND) {
                    send(redis, keys.due(shardOf[order]), batch, window, failure);
                    batch.clear();
                }
            }
            for (int s = 0; s < shards; s++) {
                if (!pending.get(s).isEmpty()) {
                    send(redis, keys.due(s), pending.get(s), window, failure);
                }
            }
            if (!window.tryAcquire(IN_FLIGHT, TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Redis did not answer every ZADD within " + TIMEOUT_SECONDS + " s");
            }
            if (failure.get() != null) {
                throw new IllegalStateException("ZADD failed", failure.get());
            }
            return Rate.since(started, members, true);
        }
    }

    private static void send(
            RedisClusterAsyncCommands<String, String> redis,
            String key,
            List<Object> batch,
            Semaphore window,
            AtomicReference<Throwable> failure)
            throws InterruptedException {
        Object[] scoresAndMembers = batch.toArray();
        window.acquire();
        redis.zadd(key, ZAddArgs.Builder.gt(), scoresAndMembers).whenComplete((added, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
            window.release();
        });
    }
}
