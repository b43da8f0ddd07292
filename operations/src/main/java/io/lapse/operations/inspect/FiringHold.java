package io.lapse.operations.inspect;

import io.lapse.config.LapseConfig;
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
        Map<String, WatermarkEntry> fields = Watermarks.of(connections.redis(), connections.keys(), config)
                .all()
                .join();
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
                    + "push may still wait there; held by " + String.join(", ", behind));
        }
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
