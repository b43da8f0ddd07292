package io.lapse.store;

import io.lapse.ops.TimerCounts;
import io.lapse.ops.TimerView;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Counts what the timer store holds, for the status page and the timer gauges: orders watched, and in zset mode those
 * whose deadline is more than the grace past (a claimed order's score is its lease, so it does not count) and the
 * oldest such deadline. In ttl mode Redis alone knows which keys are past due, so overdue stays unknown.
 */
public final class TimerCensus implements TimerView {

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerStore store;
    private final Watermarks watermarks;

    public TimerCensus(RedisConnection connection, TimerStore store, Watermarks watermarks) {
        this.redis = connection.async();
        this.store = store;
        this.watermarks = watermarks;
    }

    @Override
    public CompletableFuture<TimerCounts> counts(long now) {
        CompletableFuture<Long> watched = store.watchedCount();
        if (!(store instanceof RedisTimerStore)) {
            return watched.thenApply(count -> new TimerCounts(count, null, null));
        }
        double overdueBefore = now - TimerCounts.OVERDUE_GRACE_MS;
        List<CompletableFuture<Long>> overdue = new ArrayList<>();
        List<CompletableFuture<List<ScoredValue<String>>>> earliest = new ArrayList<>();
        TimerKeys keys = store.keys();
        for (int shard = 0; shard < keys.shards(); shard++) {
            overdue.add(redis.zcount(keys.due(shard), Range.create(Double.NEGATIVE_INFINITY, overdueBefore))
                    .toCompletableFuture());
            earliest.add(redis.zrangeWithScores(keys.due(shard), 0, 0).toCompletableFuture());
        }
        List<CompletableFuture<?>> all = new ArrayList<>(overdue);
        all.addAll(earliest);
        all.add(watched);
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(done -> {
            long late = overdue.stream().mapToLong(CompletableFuture::join).sum();
            Long oldest = late == 0 ? null : (long) earliest.stream().flatMap(f -> f.join().stream())
                    .mapToDouble(ScoredValue::getScore).min().orElseThrow();
            return new TimerCounts(watched.join(), late, oldest);
        });
    }

    @Override
    public CompletableFuture<Map<String, Long>> watermarks() {
        return watermarks.all();
    }
}
