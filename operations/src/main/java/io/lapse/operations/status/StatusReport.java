package io.lapse.operations.status;

import io.lapse.event.CohortEvent;
import io.lapse.event.FleetEvent;
import io.lapse.internal.ControlCharacters;
import io.lapse.operations.cli.Show;
import io.lapse.operations.dlq.DeadLetterSummary;
import io.lapse.operations.watermarks.PartitionMarks;
import io.lapse.store.timers.ShardCensus;
import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Everything lapse status shows, for people and (with --json) for scripts. Times are epoch ms.
 *
 * @param epochs the compensator's epoch marker per shard; null entries where a shard has none
 * @param timerOwners which shards a running timer serves
 * @param fleetSilence the fleet silence on now, or null
 * @param cohortOf what names an order's cohort (fleet.cohort-field), or empty when cohorts are not told
 * @param cohortSilences the cohort silences on now, by cohort
 * @param problems what is wrong, one sentence each; empty when all is well
 */
record StatusReport(
        long at,
        List<PartitionMarks.Mark> watermarks,
        List<String> unreportedPartitions,
        PartitionMarks.Mark lowestWatermark,
        List<ServiceLag> consumerLag,
        List<ShardCensus.ShardCount> shards,
        long watched,
        long overdue,
        ShardCensus.OverdueOrder oldestOverdue,
        ServiceMetrics.Reading metrics,
        DeadLetterSummary deadLetters,
        long deadLetterWindowMillis,
        List<String> epochs,
        TimerOwners timerOwners,
        FleetEvent fleetSilence,
        String cohortOf,
        List<CohortEvent> cohortSilences,
        List<String> problems) {

    private static final int SHARDS_PER_LINE = 8;

    void print(PrintWriter out) {
        out.println("lapse status at " + Show.time(at));
        printWatermarks(out);
        printFleet(out);
        printCohorts(out);
        out.println("consumer lag   "
                + consumerLag.stream()
                        .map(g -> g.role() + " "
                                + (g.lag() == null ? "(nothing committed by " + g.group() + ")" : Show.count(g.lag())))
                        .collect(Collectors.joining(" · ")));
        out.println("timers         " + Show.count(watched) + " watched in " + shards.size() + " shards:");
        for (int from = 0; from < shards.size(); from += SHARDS_PER_LINE) {
            out.println("  "
                    + shards.subList(from, Math.min(from + SHARDS_PER_LINE, shards.size())).stream()
                            .map(s -> String.format("s%02d %-6s", s.shard(), Show.count(s.watched())))
                            .collect(Collectors.joining(" "))
                            .stripTrailing());
        }
        out.println("overdue        "
                + (overdue == 0
                        ? "none"
                        : Show.count(overdue) + ", the oldest " + oldestOverdue.orderId() + " (deadline "
                                + Show.time(oldestOverdue.deadline()) + ", " + Show.ago(oldestOverdue.deadline(), at)
                                + ")"));
        out.println("fire lateness  " + describeLateness());
        out.println("dead letters   " + describeDeadLetters());
        out.println("pull backlog   " + describeBacklog());
        out.println("upstream       "
                + (metrics.outage() == null
                        ? "answering (no puller finds it out)"
                        : "out since " + Show.time(metrics.outageSince()) + " (" + Show.ago(metrics.outageSince(), at)
                                + "): " + StatusProblems.outageCause(metrics.outage())
                                + "; pulls are parked and asked again once it answers (lapse_puller_outage)"));
        out.println("held pulls     "
                + (metrics.heldPulls() == 0
                        ? "none"
                        : Show.count(metrics.heldPulls(), "pull", "pulls")
                                + " parked until upstream answers, asked again every upstream.circuit-open "
                                + "(lapse_puller_held)"));
        out.println("compensator    last drift scan "
                + (metrics.lastDriftScan() == null
                        ? "unknown (no service " + "reached exports " + ServiceMetrics.LAST_SCAN + "{scan=\""
                                + ServiceMetrics.DRIFT_SCAN + "\"})"
                        : Show.time(metrics.lastDriftScan()) + " (" + Show.ago(metrics.lastDriftScan(), at) + ")")
                + (metrics.rebuildBehind() == 0
                        ? ""
                        : "; rebuild postponed until its mirror has read " + Show.count(metrics.rebuildBehind())
                                + " more records"));
        out.println("redis epoch    " + describeEpochs());
        out.println("timer shards   " + timerOwners.describe(shards.size()));
        out.println(problems.isEmpty() ? "problems       none" : "problems       " + problems.size());
        problems.forEach(p -> out.println("  - " + p));
    }

    /** Next to the watermarks, since the two say opposite things: they stopped writing, or we stopped reading. */
    private void printFleet(PrintWriter out) {
        if (fleetSilence == null) {
            out.println("fleet silence  none (producers write to every push partition they usually write to)");
            return;
        }
        out.println("fleet silence  since " + Show.time(fleetSilence.since()) + " ("
                + Show.ago(fleetSilence.since(), at) + "): push partitions " + fleetSilence.partitionNumbers()
                + " went silent at once, " + Math.round(fleetSilence.silentShare() * 100) + " % of the pushes missing, "
                + Show.count(fleetSilence.watchedOrders()) + " orders watched then");
        out.println("               the producers stopped writing, not ingest reading: expiries fire and every "
                + "silent order is pulled (an old watermark would mean the opposite: nothing fires)");
    }

    private void printCohorts(PrintWriter out) {
        if (cohortSilences.isEmpty()) {
            out.println(
                    cohortOf.isEmpty()
                            ? "cohort silence none told (fleet.cohort-field is empty)"
                            : "cohort silence none (no cohort of " + cohortOf + " went silent while the rest pushes)");
            return;
        }
        for (CohortEvent silence : cohortSilences) {
            out.println("cohort silence " + CohortSilenceText.describe(silence, at));
        }
        out.println("               one cohort's orders stopped pushing together, the rest of the fleet pushes: each "
                + "fires and is pulled; ask that cohort's upstream");
    }

    private void printWatermarks(PrintWriter out) {
        if (lowestWatermark == null) {
            out.println("watermarks     none reported");
        } else {
            out.printf(
                    "watermarks     lowest %s (%s old) of %d partitions%n",
                    Show.time(lowestWatermark.watermark()),
                    Show.duration(lowestWatermark.ageMillis()),
                    watermarks.size());
        }
        // unreported partitions alone (ingest never reported) line up too: a width of 0 is no format
        int width = Math.max(
                1,
                Stream.concat(watermarks.stream().map(PartitionMarks.Mark::partition), unreportedPartitions.stream())
                        .mapToInt(String::length)
                        .max()
                        .orElse(1));
        for (PartitionMarks.Mark mark : watermarks) {
            out.printf(
                    "  %-" + width + "s  %s  %s old%s%n",
                    mark.partition(),
                    Show.time(mark.watermark()),
                    Show.duration(mark.ageMillis()),
                    mark.exists() ? "" : "  (partition no longer exists)");
        }
        unreportedPartitions.forEach(p -> out.printf("  %-" + width + "s  none yet%n", p));
    }

    private String describeLateness() {
        String where = metrics.reached().isEmpty() ? "" : " (" + String.join(", ", metrics.reached()) + ")";
        String failed =
                metrics.unreachable().isEmpty() ? "" : "; not reached: " + String.join("; ", metrics.unreachable());
        if (metrics.p50Millis() == null) {
            return "unknown: no timer reached has fired" + where + failed;
        }
        return "p50 " + Show.duration(Math.round(metrics.p50Millis())) + ", p99 "
                + Show.duration(Math.round(metrics.p99Millis())) + " over "
                + Show.count(metrics.fired(), "expiry", "expiries")
                + " since the timers started" + where + failed;
    }

    /** Figures only, in the same words whatever they are, so that a script or a transcript can rely on the line. */
    private String describeBacklog() {
        if (metrics.reached().isEmpty()) {
            return "unknown: no service reached";
        }
        return "not answered " + Show.count(metrics.backlog()) + ", answered " + Math.round(metrics.drainRate())
                + "/s over the last minute, time to drain "
                + (metrics.secondsToDrain().isPresent()
                        ? Show.duration(metrics.secondsToDrain().getAsLong() * 1000)
                        : "unknown: none answered within the last minute");
    }

    private String describeDeadLetters() {
        String text = Show.count(deadLetters.size()) + ", " + Show.count(deadLetters.recent()) + " in the last "
                + Show.duration(deadLetterWindowMillis);
        return deadLetters.newestAt() == null
                ? text
                : text + "; newest " + Show.time(deadLetters.newestAt()) + " (" + Show.ago(deadLetters.newestAt(), at)
                        + "): " + ControlCharacters.escape(deadLetters.newestReason());
    }

    private String describeEpochs() {
        List<String> distinct =
                epochs.stream().filter(Objects::nonNull).distinct().toList();
        long missing = epochs.stream().filter(Objects::isNull).count();
        if (distinct.isEmpty()) {
            return "none (no shard has an epoch marker)";
        }
        return String.join(", ", distinct) + (missing == 0 ? "" : "; " + missing + " shards have none");
    }
}
