package io.lapse.compensator;

import io.lapse.store.RebuildCount;
import java.time.Duration;
import java.util.Set;

/**
 * What one full rebuild did.
 *
 * @param behind   records the compensator had still to process when the rebuild read its mirror (0: none; else
 *                 expiries among them may fire again or be skipped)
 * @param declared shards whose epoch the rebuild wrote (none in a dry run)
 * @param lost     shards that lost data again during the rebuild: they must be rebuilt again
 */
record RebuildResult(
        RebuildCount count, long behind, Set<Integer> declared, Set<Integer> lost, Duration took, boolean dryRun) {

    boolean complete() {
        return lost.isEmpty() && behind == 0;
    }
}
