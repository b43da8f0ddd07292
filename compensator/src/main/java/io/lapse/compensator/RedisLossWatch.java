package io.lapse.compensator;

import io.lapse.store.RedisEpochs;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices within a second that Redis lost its data, and has everything rebuilt at once. A shard without its epoch
 * lost it: a flush, a restart without persistence, a new empty master. A master with a new run id restarted or failed
 * over and may have lost the last writes while keeping the epoch: a rebuild writes back whatever is missing. A fresh
 * installation has no epoch either: its first rebuild finds an empty mirror and is done in a moment.
 */
final class RedisLossWatch {

    private static final Logger log = LoggerFactory.getLogger(RedisLossWatch.class);

    /** A full rebuild, run on the watch's thread. */
    @FunctionalInterface
    interface Rebuild {
        RebuildResult run(String reason) throws InterruptedException;
    }

    private final RedisEpochs epochs;
    private final Rebuild rebuild;
    private final CompensatorMetrics metrics;
    private Set<String> runIds;
    private volatile boolean whole;

    RedisLossWatch(RedisEpochs epochs, Rebuild rebuild, CompensatorMetrics metrics) {
        this.epochs = epochs;
        this.rebuild = rebuild;
        this.metrics = metrics;
    }

    /** One look at Redis, and a full rebuild when it lost its data. */
    void check() throws InterruptedException {
        Map<Integer, String> current = Blocking.await(epochs.current(), "read the Redis epochs");
        current.values().forEach(metrics::sawEpoch);
        Set<String> ids = Blocking.await(epochs.serverRunIds(), "read the Redis run ids");
        List<Integer> missing = current.entrySet().stream()
                .filter(e -> e.getValue() == null)
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        boolean restarted = runIds != null && !runIds.equals(ids);
        if (missing.isEmpty() && !restarted) {
            runIds = ids;
            whole = true;
            return;
        }
        whole = false;
        String reason = !missing.isEmpty()
                ? (missing.size() == current.size() ? "no shard" : "shards " + missing) + " of Redis has an epoch"
                : "a Redis server restarted or failed over (run ids " + runIds + " → " + ids + ")";
        RebuildResult result = rebuild.run(reason);
        if (result.lost().isEmpty() && !result.postponed()) {
            runIds = ids;
            whole = true;
        }
    }

    /** Whether Redis held every shard's epoch at the last look, or got them back from the rebuild since. */
    boolean redisWhole() {
        return whole;
    }
}
