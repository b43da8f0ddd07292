package io.lapse.timer;

import io.lapse.store.timers.TimerStore;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Forgets orders that ended or were given up longer than {@code timer.tombstone-retention} ago, at least as fast as
 * they end. At 1 M watched orders with 30-90 min sessions about 17,000 end per minute. Each round prunes every owned
 * shard in batches (a batch is about a millisecond of Redis), going again while a shard fills its batch, up to a cap
 * that keeps a round short enough not to delay a claim round noticeably; a backlog (a timer down for a day) drains over
 * a few rounds.
 */
final class EndedPruning {

    static final int BATCH = 1_000;
    static final int BATCHES_PER_ROUND = 10;
    private static final long CALL_TIMEOUT_SECONDS = 30;

    private final TimerStore store;

    EndedPruning(TimerStore store) {
        this.store = store;
    }

    /** @return how many orders this round forgot */
    long round(Set<Integer> owned) throws Exception {
        long total = 0;
        Set<Integer> full = owned;
        for (int batch = 0; batch < BATCHES_PER_ROUND && !full.isEmpty(); batch++) {
            Map<Integer, CompletableFuture<Long>> calls = new HashMap<>();
            full.forEach(shard -> calls.put(shard, store.prune(shard, BATCH)));
            Set<Integer> fullAgain = new HashSet<>();
            for (Map.Entry<Integer, CompletableFuture<Long>> call : calls.entrySet()) {
                long pruned = call.getValue().get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                total += pruned;
                if (pruned == BATCH) {
                    fullAgain.add(call.getKey());
                }
            }
            full = fullAgain;
        }
        return total;
    }
}
