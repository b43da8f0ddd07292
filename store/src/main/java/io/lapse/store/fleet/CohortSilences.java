package io.lapse.store.fleet;

import io.lapse.event.CohortEvent;
import io.lapse.event.JsonCodec;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A copy of the cohort silences now on, kept in Redis so that every ingest instance, lapse status, inspect and the
 * console see them: each silent cohort's COHORT_SILENCE_STARTED event. The fleet events topic is the record; the
 * ingest instance that judges writes this copy again when Redis lost it.
 */
public final class CohortSilences {

    private final RedisClusterAsyncCommands<String, String> redis;
    private final TimerKeys keys;

    public CohortSilences(RedisConnection connection, TimerKeys keys) {
        this.redis = connection.async();
        this.keys = keys;
    }

    /** The silent cohorts, by name (sorted); a field that is not an event is passed over. */
    public CompletableFuture<Map<String, CohortEvent>> current() {
        return redis.hgetall(keys.cohortSilences()).toCompletableFuture().thenApply(fields -> {
            Map<String, CohortEvent> silent = new TreeMap<>();
            fields.forEach((cohort, json) -> {
                try {
                    silent.put(cohort, JsonCodec.COHORT_EVENT.decode(json.getBytes(StandardCharsets.UTF_8)));
                } catch (RuntimeException e) {
                    // not written by Lapse
                }
            });
            return silent;
        });
    }

    public CompletableFuture<Void> declare(CohortEvent started) {
        return redis.hset(
                        keys.cohortSilences(),
                        started.cohort(),
                        new String(JsonCodec.COHORT_EVENT.encode(started), StandardCharsets.UTF_8))
                .toCompletableFuture()
                .thenApply(added -> null);
    }

    public CompletableFuture<Void> end(String cohort) {
        return redis.hdel(keys.cohortSilences(), cohort).toCompletableFuture().thenApply(n -> null);
    }
}
