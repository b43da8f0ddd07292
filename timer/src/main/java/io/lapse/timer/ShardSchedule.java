package io.lapse.timer;

import io.lapse.store.timers.ClaimBatch;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * When each shard next needs a claim, as far as the last claim round saw. A shard not seen yet, or one whose
 * earliest deadline may have moved (an arm woke us), counts as due now.
 */
final class ShardSchedule {

    private final Map<Integer, Long> nextDue = new HashMap<>();

    synchronized void claimed(ClaimBatch batch, int batchSize) {
        boolean more = batch.claims().size() >= batchSize;
        nextDue.put(batch.shard(), more ? Long.MIN_VALUE : batch.nextDue().orElse(Long.MAX_VALUE));
    }

    synchronized void mayHaveMoved(int shard) {
        nextDue.remove(shard);
    }

    synchronized void forgetAll() {
        nextDue.clear();
    }

    /** The owned shards that may hold something due at {@code limit}. */
    synchronized Set<Integer> due(Set<Integer> owned, long limit) {
        Set<Integer> due = new TreeSet<>();
        for (int shard : owned) {
            Long next = nextDue.get(shard);
            if (next == null || next <= limit) {
                due.add(shard);
            }
        }
        return due;
    }

    /** The earliest known deadline among the owned shards; empty when they are all empty. */
    synchronized OptionalLong earliest(Set<Integer> owned) {
        long min = Long.MAX_VALUE;
        for (int shard : owned) {
            min = Math.min(min, nextDue.getOrDefault(shard, Long.MIN_VALUE));
        }
        return min == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(min);
    }
}
