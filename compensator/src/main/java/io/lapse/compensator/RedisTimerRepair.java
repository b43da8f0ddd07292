package io.lapse.compensator;

import io.lapse.store.TimerStore;
import io.lapse.store.Watermarks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Repairs the Redis timer store. Blocks, because the scan runs on a stream thread that has nothing else to do
 * meanwhile; the timeout keeps a hung Redis from stalling the thread past Kafka's poll interval.
 */
public final class RedisTimerRepair implements TimerRepair {

    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final TimerStore store;
    private final Watermarks watermarks;

    public RedisTimerRepair(TimerStore store, Watermarks watermarks) {
        this.store = store;
        this.watermarks = watermarks;
    }

    @Override
    public OptionalLong watermark() {
        return await(watermarks.low(), "read the watermark");
    }

    @Override
    public List<String> recover(Map<String, Long> lastSeenByOrder) {
        return await(store.recover(lastSeenByOrder), "recover " + lastSeenByOrder.size() + " orders");
    }

    private static <T> T await(CompletableFuture<T> reply, String what) {
        try {
            return reply.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Redis failed to " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Redis did not " + what + " within " + TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Redis to " + what, e);
        }
    }
}
