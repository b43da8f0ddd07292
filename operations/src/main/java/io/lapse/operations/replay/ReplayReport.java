package io.lapse.operations.replay;

import io.lapse.operations.cli.Show;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a replay did, for people and (with --json) for scripts.
 *
 * @param orders         expired topic only: orders with an expiry in the range; null for other topics
 * @param copiesLeftOut  records of the range that are themselves copies from an earlier replay or redrive
 * @param otherKeys      records left out by --key
 * @param unreadable     expired topic only: records that are no TimerExpired
 * @param statusSince    expired topic only: orders left out because they have had a status since
 * @param replayedBefore records (or, on the expired topic, orders) an earlier run already re-published
 * @param selected       records chosen to publish (all of them published unless --dry-run or failed)
 * @param wouldPublish   with --dry-run, the first {@value #SHOWN} records a real run would publish
 * @param perPartition   how many of the selected records each partition read held (topic/partition), for --json
 */
record ReplayReport(
        String topic,
        String toTopic,
        String from,
        String to,
        String key,
        boolean dryRun,
        long read,
        Long orders,
        long copiesLeftOut,
        long otherKeys,
        long unreadable,
        long statusSince,
        long replayedBefore,
        long selected,
        long published,
        long failed,
        String firstError,
        List<String> wouldPublish,
        Map<String, Long> perPartition,
        long millis) {

    static final int SHOWN = 100;

    ReplayReport {
        wouldPublish = List.copyOf(wouldPublish);
        // sorted, so that the JSON lists the partitions in order
        perPartition = java.util.Collections.unmodifiableMap(new TreeMap<>(perPartition));
    }

    /** Every line through {@link Show#line}: keys, topics and errors come from Kafka. */
    void print(PrintWriter out) {
        for (String line : wouldPublish) {
            Show.line(out, "would publish " + line);
        }
        if (dryRun && selected > wouldPublish.size()) {
            Show.line(out, "… and " + Show.count(selected - wouldPublish.size()) + " more");
        }
        StringBuilder text = new StringBuilder(dryRun ? "dry run: " : "")
                .append("replay ")
                .append(topic)
                .append(" from ")
                .append(from)
                .append(" to ")
                .append(to);
        if (!toTopic.equals(topic)) {
            text.append(" → ").append(toTopic);
        }
        text.append(": read ").append(Show.count(read, "record"));
        if (key != null) {
            text.append(", ")
                    .append(Show.count(read - otherKeys))
                    .append(" of order ")
                    .append(key);
        }
        text.append(Show.clause(copiesLeftOut, "copy left out", "copies left out"));
        text.append(Show.clause(unreadable, "not TimerExpired", "not TimerExpired"));
        if (orders != null) {
            text.append("; ").append(Show.count(orders, "order")).append(" expired");
            text.append(Show.clause(statusSince, "had a status since", "had a status since"));
        }
        text.append(Show.clause(replayedBefore, "replayed before", "replayed before"));
        text.append("; ")
                .append(dryRun ? "would publish " + Show.count(selected) : "published " + Show.count(published))
                .append(failed > 0 ? ", " + Show.count(failed) + " failed" : "")
                .append(" in ")
                .append(Show.duration(millis));
        Show.line(out, text.toString());
        if (firstError != null) {
            Show.line(
                    out,
                    "first failure: " + firstError + " (run the same command again: what was published is skipped)");
        }
    }
}
