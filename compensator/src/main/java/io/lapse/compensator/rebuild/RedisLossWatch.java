package io.lapse.compensator.rebuild;

import io.lapse.compensator.mirror.Blocking;
import io.lapse.store.epochs.RedisEpochs;
import java.util.List;
import java.util.Map;

/**
 * Notices within a second that Redis lost its data, and has everything rebuilt at once. A shard without its epoch
 * lost it: a flush, a restart without persistence, a new empty master. A shard whose epoch was declared on another
 * server than the one serving it now (a restart, a promoted replica, a restored snapshot) may have lost the last
 * writes while keeping the epoch: it is fenced first (its epoch taken away, so nothing fires from the stale data), then
 * rebuilt. The server is recorded in Redis beside the epoch, so a change is seen whenever it happened, also while no
 * compensator ran. A fresh installation has no epoch either: its first rebuild finds an empty mirror and is done in a
 * moment.
 */
public final class RedisLossWatch {

    /** A full rebuild, run on the watch's thread. */
    @FunctionalInterface
    interface Rebuild {
        RebuildResult run(String reason) throws InterruptedException;
    }

    private final RedisEpochs epochs;
    private final Rebuild rebuild;
    private final CompensatorMetrics metrics;
    private volatile boolean whole;

    public RedisLossWatch(RedisEpochs epochs, Rebuild rebuild, CompensatorMetrics metrics) {
        this.epochs = epochs;
        this.rebuild = rebuild;
        this.metrics = metrics;
    }

    /** One look at Redis, and a full rebuild when it lost its data. */
    public void check() throws InterruptedException {
        Map<Integer, String> fenced = Blocking.await(epochs.fence(epochs.allShards()), "fence the Redis epochs");
        Map<Integer, String> current = Blocking.await(epochs.current(), "read the Redis epochs");
        current.values().forEach(metrics::sawEpoch);
        List<Integer> missing = current.entrySet().stream()
                .filter(e -> e.getValue() == null)
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        if (missing.isEmpty()) {
            whole = true;
            return;
        }
        whole = false;
        String reason = fenced.isEmpty()
                ? (missing.size() == current.size() ? "no shard" : "shards " + missing) + " of Redis has an epoch"
                : "shards " + fenced.keySet() + " were declared on another Redis server than the one serving them now "
                        + "(a restart, a promoted replica or a restored snapshot, which may lack the last writes): "
                        + "their epochs are taken away";
        RebuildResult result = rebuild.run(reason);
        if (result.lost().isEmpty() && !result.postponed()) {
            whole = true;
        }
    }

    /** Whether Redis held every shard's epoch at the last look, or got them back from the rebuild since. */
    public boolean redisWhole() {
        return whole;
    }
}
