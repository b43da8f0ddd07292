package io.lapse.compensator.rebuild;

import io.lapse.store.timers.RebuildCount;
import java.util.ArrayList;
import java.util.List;

/** A rebuild's result in one line, for the log and for on-call. */
public final class RebuildSummary {

    private RebuildSummary() {}

    public static String of(RebuildResult result) {
        if (result.postponed()) {
            return String.format(
                    "postponed: the mirror is still %,d records behind its input topics, so it cannot vouch for their "
                            + "orders; nothing written, no shard declared (%.1f s)",
                    result.behind(), result.took().toMillis() / 1000.0);
        }
        RebuildCount count = result.count();
        String verb = result.dryRun() ? "would write" : "wrote";
        List<String> parts = new ArrayList<>();
        parts.add(String.format(
                "%s %,d watched timers (%,d due at once), %,d given-up marks, %,d tombstones; "
                        + "%,d orders already in place",
                verb, count.watched(), count.overdue(), count.givenUp(), count.ended(), count.kept()));
        if (!result.dryRun()) {
            parts.add(
                    result.lost().isEmpty()
                            ? String.format(
                                    "%d shards declared", result.declared().size())
                            : "Redis lost data again during the rebuild, shards " + result.lost()
                                    + " are not declared");
        }
        if (result.behind() > 0) {
            parts.add(String.format("the mirror was %,d records behind its input topics", result.behind()));
        }
        return String.join("; ", parts)
                + String.format(" (%.1f s)", result.took().toMillis() / 1000.0);
    }
}
