package io.lapse.operations.inspect;

import io.lapse.config.LapseConfig;
import io.lapse.config.TimerMode;
import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Show;
import io.lapse.operations.status.TimerOwners;
import io.lapse.store.epochs.RedisEpochs;
import io.lapse.store.timers.OrderView;
import io.lapse.store.watermarks.WatermarkEntry;
import io.lapse.store.watermarks.Watermarks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Whether the timer would fire an order now and, if not, why: each thing a claim waits for, read where the timer reads
 * it. The watermark must have passed the deadline (plus the slack) on every partition of the push and pulled topics,
 * the order's shard must have an epoch, a timer instance must own the shard, and a leased expiry waits for its lease.
 *
 * @param headline whether it is held, in a few words
 * @param reasons  what holds it (or would, once it is due), one line each
 */
record FiringHold(String headline, List<String> reasons) {

    static FiringHold of(Connections connections, OrderView view, int shard, long now) {
        if (!view.isWatched()) {
            return new FiringHold("no: not watched", List.of());
        }
        long due = view.dueAt().orElse(now);
        if (view.phase() == OrderView.Phase.LEASED) {
            return new FiringHold(
                    "yes: leased, its expiry is being published; the lease ends " + Show.time(due) + " ("
                            + Show.ago(due, now) + "), then it fires again unless acknowledged",
                    List.of());
        }
        List<String> reasons = new ArrayList<>();
        watermarkBehind(connections, due, now, reasons);
        noEpoch(connections, shard, reasons);
        noOwner(connections, shard, reasons);
        if (due > now) {
            return new FiringHold(
                    "not yet due: fires " + Show.time(due) + " (" + Show.ago(due, now) + ") unless a status comes"
                            + (reasons.isEmpty() ? "" : "; then held, as now:"),
                    reasons);
        }
        return reasons.isEmpty()
                ? new FiringHold("no: due " + Show.ago(due, now) + ", the timer fires it at its next round", reasons)
                : new FiringHold("yes: due " + Show.ago(due, now) + ", and", reasons);
    }

    private static void watermarkBehind(Connections connections, long due, long now, List<String> reasons) {
        LapseConfig config = connections.config();
        Watermarks watermarks = Watermarks.of(connections.redis(), connections.keys(), config);
        Map<String, WatermarkEntry> fields = watermarks.all().join();
        long needed = due + config.timer().watermarkSlack().toMillis();
        List<String> behind = new ArrayList<>();
        for (String topic : List.of(config.topics().push(), config.topics().pulled())) {
            WatermarkEntry count = fields.get(Watermarks.countField(topic));
            if (count == null) {
                behind.add(topic + " (ingest has never reported it)");
                continue;
            }
            if (count.madeAt() < needed) {
                behind.add(topic + "'s partitions counted " + Show.time(count.madeAt()) + " ("
                        + Show.ago(count.madeAt(), now) + ")");
            }
            for (int partition = 0; partition < count.value(); partition++) {
                String field = Watermarks.field(topic, partition);
                WatermarkEntry mark = fields.get(field);
                if (mark == null) {
                    behind.add(field + " (no mark: nothing known of what waits there)");
                } else if (mark.value() < needed) {
                    behind.add(field + " read up to " + Show.time(mark.value()) + " (" + Show.ago(mark.value(), now)
                            + ")");
                }
            }
        }
        if (!behind.isEmpty()) {
            reasons.add("the watermark is behind its deadline: ingest has not read every partition up to it, so a "
                    + "push may still wait there; held by " + String.join(", ", behind)
                    + standIn(config, watermarks.oldestReport(fields), now));
        }
    }

    /** What the timer does for an order the watermark holds while ingest is away (zset mode only). */
    private static String standIn(LapseConfig config, OptionalLong oldestReport, long now) {
        if (config.timer().mode() != TimerMode.ZSET) {
            return "";
        }
        String age = oldestReport.isPresent()
                ? "its oldest report was made " + Show.ago(oldestReport.getAsLong(), now)
                : "some partition has no report";
        return ". Once ingest's oldest report is " + Show.duration(Watermarks.READER_AWAY_MS) + " old (" + age
                + ") the timer reads what ingest has not applied itself and fires the order if none of it names the order";
    }

    private static void noEpoch(Connections connections, int shard, List<String> reasons) {
        Map<Integer, String> epochs = new RedisEpochs(connections.redis(), connections.keys())
                .current()
                .join();
        if (epochs.get(shard) == null) {
            reasons.add(String.format(
                    "shard s%02d has no epoch: Redis lost its data (or was never rebuilt), and nothing fires from the "
                            + "shard until a rebuild declares one (lapse rebuild, or the compensator's)",
                    shard));
        }
    }

    private static void noOwner(Connections connections, int shard, List<String> reasons) {
        String group = connections.config().timer().groupId();
        TimerOwners owners = TimerOwners.of(
                connections,
                group,
                connections.config().topics().timerShards(),
                connections.config().timer().shards());
        if (owners.unserved().contains(shard)) {
            reasons.add(String.format(
                    "no timer instance owns shard s%02d (consumer group %s has %d members, none assigned %s/%d)",
                    shard, group, owners.timers(), connections.config().topics().timerShards(), shard));
        }
    }
}
