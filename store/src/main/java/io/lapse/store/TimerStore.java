package io.lapse.store;

import io.lapse.config.TimerSettings;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis timer store as ingest, puller and compensator see it, whichever timer.mode keeps the deadlines. Every
 * operation is one Lua script per shard touched, all in flight at once.
 */
public interface TimerStore {

    static TimerStore of(RedisConnection connection, TimerKeys keys, TimerSettings settings) {
        return switch (settings.mode()) {
            case ZSET -> new RedisTimerStore(connection, keys, settings);
            case TTL -> new TtlTimerStore(connection, keys, settings);
        };
    }

    TimerKeys keys();

    /** Re-arms, ends or ignores each order as its newest update says; completes once Redis has applied them all. */
    CompletableFuture<ApplyResult> apply(Collection<OrderUpdate> updates);

    /** What Redis knows of each order. */
    CompletableFuture<Map<String, OrderView>> inspect(Collection<String> orderIds);

    /**
     * Repairs orders Redis has lost track of, from their lastSeen; their next expiry says source=compensator.
     *
     * @return the orderIds that were repaired
     */
    CompletableFuture<List<String>> recover(Map<String, Long> lastSeenByOrder);

    /** Orders watched now, over all shards. */
    CompletableFuture<Long> watchedCount();

    /** Forgets up to {@code limit} orders of the shard that ended or were given up longer than the retention ago. */
    CompletableFuture<Long> prune(int shard, int limit);
}
