package io.lapse.operations.status;

import io.lapse.config.Durations;
import io.lapse.event.CohortEvent;
import io.lapse.event.FleetEvent;
import io.lapse.operations.cli.Show;
import io.lapse.operations.dlq.DeadLetterSummary;
import io.lapse.operations.watermarks.PartitionMarks;
import io.lapse.store.timers.ShardCensus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/** What lapse status counts as wrong, each with what to look at next. */
final class StatusProblems {

    private StatusProblems() {}

    /** What an outage's cause ({@code lapse_puller_outage{cause}}) means, and what to do. */
    static String outageCause(String cause) {
        return switch (cause) {
            case "credentials" ->
                "it refuses the credentials (401, 403 or 407): renew the token in "
                        + "upstream.bearer-token-file, which the pullers read again, or upstream.headers.*";
            case "refusals" -> "it refuses most orders alike (the same 4xx, or 200s that are no status)";
            default -> "it does not answer (timeouts, 5xx, 408, 429, no connection)";
        };
    }

    static List<String> of(
            PartitionMarks marks,
            long now,
            long maxWatermarkAge,
            List<ShardCensus.ShardCount> shards,
            TimerOwners owners,
            DeadLetterSummary deadLetters,
            long window,
            ServiceMetrics.Reading metrics,
            FleetEvent fleetSilence,
            List<CohortEvent> cohortSilences) {
        List<String> problems = new ArrayList<>();
        marks.lowest(now)
                .ifPresentOrElse(
                        lowest -> {
                            if (lowest.ageMillis() > maxWatermarkAge) {
                                problems.add("the watermark is " + Show.duration(lowest.ageMillis()) + " old ("
                                        + lowest.partition()
                                        + "), more than " + Show.duration(maxWatermarkAge)
                                        + ": ingest is stopped or behind, and "
                                        + "nothing after it fires");
                            }
                        },
                        () -> problems.add("ingest has reported no watermark: nothing fires"));
        marks.marks(now).stream()
                .filter(m -> !m.exists())
                .forEach(m -> problems.add("the mark of " + m.partition()
                        + " belongs to a partition that no longer exists and holds the watermark back: lapse watermarks "
                        + "forget " + m.partition()));
        marks.unreported().forEach(p -> problems.add(p + " has no watermark yet, which holds firing back"));
        long overdue =
                shards.stream().mapToLong(ShardCensus.ShardCount::overdue).sum();
        if (overdue > 0) {
            problems.add(Show.count(overdue, "timer is", "timers are")
                    + " overdue: the deadline passed and they have not fired");
        }
        if (deadLetters.recent() > 0) {
            problems.add(Show.count(deadLetters.recent(), "dead letter") + " in the last " + Show.duration(window)
                    + ": lapse dlq list --since -" + Durations.format(Duration.ofMillis(window)));
        }
        metrics.unreachable()
                .forEach(service -> problems.add("a service does not answer (" + service + "): lapse status "
                        + "cannot see its fire lateness, pull backlog, parked pulls or drift scan; is it running, and is "
                        + "--metrics its address?"));
        if (metrics.outage() != null) {
            problems.add("upstream is out since " + Show.time(metrics.outageSince()) + ": "
                    + outageCause(metrics.outage())
                    + "; the pullers park every pull, give no order up for it, and pull each once upstream answers "
                    + "(the pullers' logs say what it answered)");
        }
        if (metrics.heldPulls() > 0) {
            problems.add(Show.count(metrics.heldPulls(), "pull is", "pulls are")
                    + " parked: upstream does not answer for "
                    + (metrics.heldPulls() == 1 ? "its order" : "their orders")
                    + ", and billing waits; lapse inspect ORDER shows one, and lapse cancel ORDER lets one go");
        }
        if (metrics.secondsToDrain().isEmpty()) {
            problems.add("the pullers' backlog of " + Show.count(metrics.backlog(), "expiry", "expiries")
                    + " does not drain: none was answered within the last minute (upstream down, the circuit "
                    + "open? the pullers' logs say)");
        }
        List<Integer> withoutEpoch = IntStream.range(0, shards.size())
                .filter(i -> shards.get(i).epoch() == null)
                .boxed()
                .toList();
        if (metrics.rebuildBehind() > 0) {
            problems.add("the compensator postpones its rebuild until its mirror has read "
                    + Show.count(metrics.rebuildBehind()) + " more records of its input topics: nothing fires from "
                    + "shards without an epoch until then (its log gives the time left)");
        }
        List<Integer> rebuilding = withoutEpoch.stream()
                .filter(shard -> shards.get(shard).rebuiltUpTo() != null)
                .toList();
        if (!rebuilding.isEmpty()) {
            long upTo = rebuilding.stream()
                    .mapToLong(shard -> shards.get(shard).rebuiltUpTo())
                    .min()
                    .getAsLong();
            problems.add("a rebuild is under way: "
                    + (rebuilding.size() == shards.size() ? "every shard" : "shards " + rebuilding)
                    + " fires only the orders it wrote that are due by " + Show.time(upTo)
                    + ", the rest once it declares their epochs (the compensator's log says how far it is)");
            withoutEpoch = withoutEpoch.stream()
                    .filter(shard -> !rebuilding.contains(shard))
                    .toList();
        }
        if (!withoutEpoch.isEmpty() && withoutEpoch.size() == shards.size()) {
            problems.add("no shard has an epoch marker: nothing fires until the compensator declares its rebuild "
                    + "(is it running and caught up? its log says); lapse rebuild starts one");
        } else if (!withoutEpoch.isEmpty()) {
            problems.add("shards " + withoutEpoch + " have lost their epoch marker: Redis lost data? lapse rebuild "
                    + "restores it");
        }
        if (owners.timers() == 0) {
            problems.add("no timer runs (the timers' group has no member): nothing fires");
        } else if (!owners.unserved().isEmpty()) {
            problems.add("no timer serves shards " + owners.unserved() + ": nothing fires from them; a timer that "
                    + "stopped leaves them until its group rebalances");
        }
        if (fleetSilence != null) {
            problems.add("fleet silence since " + Show.time(fleetSilence.since()) + ": the producers stopped writing "
                    + "to push partitions " + fleetSilence.partitionNumbers() + " (upstream's push pipeline?); "
                    + "each silent order is pulled as it expires, and " + "the event is on the fleet events topic");
        }
        cohortSilences.forEach(silence -> problems.add("cohort silence of "
                + CohortSilenceText.describe(silence, now)
                + " while the rest of the fleet pushes (that cohort's upstream?); each is pulled as it expires, and "
                + "the event is on the fleet events topic"));
        return problems;
    }
}
