package io.lapse.store.internal;

import io.lapse.config.TimerSettings;
import io.lapse.event.TimerExpired;
import io.lapse.internal.Futures;
import io.lapse.store.Listening;
import io.lapse.store.Overdue;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * timer.mode=zset: one sorted set of deadlines per shard, claimed with a lease; ingest's arm script wakes the timer
 * when it arms a deadline earlier than the shard's earliest. See the scripts in {@code /io/lapse/store/}.
 */
public final class ZsetTimerStore extends LuaTimerStore {

    private static final LuaScript RELEASE_LEASES = LuaScript.named("release-leases");

    public ZsetTimerStore(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        super(connection, keys, settings, "claim", TimerExpired.Source.TIMER);
    }

    @Override
    public CompletableFuture<Long> releaseLeases(int shard) {
        return RELEASE_LEASES.run(
                redis,
                ScriptOutputType.INTEGER,
                new String[] {keys.due(shard), keys.state(shard)},
                Long.toString(settings.lease().toMillis()));
    }

    @Override
    protected String triggerPrefix(int shard) {
        return "";
    }

    @Override
    public Listening listen(IntConsumer shardMayBeDue) {
        return new WakeSubscription(connection, keys.wakeChannel(), shardMayBeDue);
    }

    @Override
    public CompletableFuture<Long> watchedCount() {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.zcard(keys.due(shard)).toCompletableFuture());
        }
        return Futures.sum(counts);
    }

    @Override
    public CompletableFuture<Optional<Overdue>> overdue(long dueBefore) {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        List<CompletableFuture<List<ScoredValue<String>>>> earliest = new ArrayList<>();
        for (int shard = 0; shard < keys.shards(); shard++) {
            counts.add(redis.zcount(keys.due(shard), Range.create(Double.NEGATIVE_INFINITY, (double) dueBefore))
                    .toCompletableFuture());
            earliest.add(redis.zrangeWithScores(keys.due(shard), 0, 0).toCompletableFuture());
        }
        CompletableFuture<Long> count = Futures.sum(counts);
        return Futures.allOf(earliest).thenCombine(count, (heads, late) -> {
            OptionalLong oldest = late == 0
                    ? OptionalLong.empty()
                    : OptionalLong.of((long) heads.stream()
                            .flatMap(List::stream)
                            .mapToDouble(ScoredValue::getScore)
                            .min()
                            .orElseThrow());
            return Optional.of(new Overdue(late, oldest));
        });
    }
}
