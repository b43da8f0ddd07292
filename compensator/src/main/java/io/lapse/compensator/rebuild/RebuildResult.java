package io.lapse.compensator.rebuild;

import io.lapse.store.timers.RebuildCount;
import java.time.Duration;
import java.util.Set;

/**
 * What one full rebuild did.
 *
 * @param behind   records the compensator had still to process when the rebuild read its mirror (0: none; else
 *                 expiries among them may fire again or be skipped)
 * @param declared shards whose epoch the rebuild wrote (none in a dry run)
 * @param lost     shards that lost data again during the rebuild: they must be rebuilt again
 * @param phases   where the time went
 * @param postponed the mirror was {@code behind} its input topics, so nothing was written and no shard declared: the
 *                  rebuild must run again
 */
public record RebuildResult(
        RebuildCount count,
        long behind,
        Set<Integer> declared,
        Set<Integer> lost,
        Duration took,
        RebuildPhases phases,
        boolean dryRun,
        boolean postponed) {

    static RebuildResult postponed(long behind, Duration took) {
        return new RebuildResult(
                RebuildCount.NONE, behind, Set.of(), Set.of(), took, RebuildPhases.caughtUpOnly(took), false, true);
    }

    public boolean complete() {
        return !postponed && lost.isEmpty() && behind == 0;
    }
}
