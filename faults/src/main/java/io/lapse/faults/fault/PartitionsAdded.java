package io.lapse.faults.fault;

import io.lapse.compensator.fold.CompensatorTopology;
import io.lapse.event.FleetEvent;
import io.lapse.event.JsonCodec;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.Role;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.observe.Seen;
import io.lapse.faults.observe.TopicTap;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.LibrdkafkaPartitioner;
import io.lapse.faults.workload.Workload;
import io.lapse.kafka.GroupLag;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator adds partitions to the push topic ({@code kafka-topics --alter --partitions}) while the orders push and
 * the scenario's silent ones have just stopped. The upstream's producers (librdkafka's partitioner: CRC-32 modulo the
 * count) notice within a second and move keys, many onto the new partitions, whose readers start from nothing. Then,
 * among the live orders whose key moved to a new partition:
 *
 * <ul>
 *   <li>{@code silentEachTime} go silent: each must fire with the deadline of its newest push within {@code grace} of
 *       it, and be pulled; only ingest's reading of the new partitions tells them from the live ones beside them;
 *   <li>ingest's group and the compensator's push group must have read every new partition up to the end it had once
 *       these fired, within {@code readWithin};
 *   <li>the pulled and expired topics get {@code added} partitions too (the topics Lapse writes, and its compensator's
 *       streams read);
 *   <li>{@code silentEachTime} more go silent and a second later Redis is emptied ({@code FLUSHALL}): only the
 *       compensator's mirror still knows their newest pushes, read from the new partitions; each must fire with that
 *       deadline within {@code grace} of it (or of the flush), and be pulled.
 * </ul>
 *
 * Every live order, the moved ones too, must not fire (the tally's false expiries); every consumer must still run; and
 * no fleet event may be published: the keys that left each old partition did not stop pushing.
 */
public record PartitionsAdded(int added, int silentEachTime, Duration grace, Duration readWithin) implements Fault {

    /** A librdkafka producer looks every five minutes by default; the suite's look every second. */
    private static final Duration PRODUCERS_NOTICE_WITHIN = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(PartitionsAdded.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);
    /** Ahead of the deadlines of the second silent orders, a ttl after their silence. */
    private static final Duration FLUSH_AFTER_SILENCE = Duration.ofSeconds(1);

    public PartitionsAdded {
        if (added < 1 || silentEachTime < 1) {
            throw new IllegalArgumentException("add at least one partition and silence at least one order at a time");
        }
    }

    @Override
    public FaultReport inject(Lab lab, Workload workload) throws Exception {
        long started = System.currentTimeMillis();
        try (TopicTap<FleetEvent> events = TopicTap.start(
                lab.broker().bootstrapServers(),
                lab.generation().topics().fleetEvents(),
                lab.settings().partitions(),
                // the topic also holds the events of earlier scenarios of the same processes
                record -> {
                    FleetEvent event = JsonCodec.FLEET_EVENT.decode(record.value());
                    return event.at() >= started ? event : null;
                })) {
            List<String> failures = addPartitions(lab, workload);
            if (!events.awaitCaughtUp(lab.admin(), ADMIN_TIMEOUT)) {
                failures.add("the fleet events topic could not be read to its end");
            }
            // keys moved off every old partition at once: no producer stopped
            events.seen().forEach(event -> failures.add("a fleet event while no producer stopped: " + event));
            return FaultReport.recoveredAt(started).withFailingOrders(Set.of(), failures);
        }
    }

    private List<String> addPartitions(Lab lab, Workload workload) throws Exception {
        String push = lab.generation().topics().push();
        int before = partitionCount(lab.admin(), push);
        int after = before + added;
        lab.admin()
                .createPartitions(Map.of(push, NewPartitions.increaseTo(after)))
                .all()
                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        log.info("{}: {} partitions, {} before", push, after, before);
        List<String> failures = new ArrayList<>();
        List<String> moved = workload.all().stream()
                .filter(id ->
                        !workload.silent().contains(id) && !workload.finished().contains(id))
                .filter(id -> partition(id, after) >= before)
                .sorted()
                .toList();
        if (moved.size() < 2 * silentEachTime) {
            failures.add("only " + moved.size() + " live orders moved to the " + added + " added partitions");
            return failures;
        }
        List<TopicPartition> newPartitions = moved.stream()
                .map(id -> new TopicPartition(push, partition(id, after)))
                .distinct()
                .toList();
        String ingest = lab.generation().group(Role.INGEST);
        if (!Waiting.until(
                () -> {
                    Map<TopicPartition, Long> ends = ends(lab.admin(), ingest, newPartitions);
                    return ends.size() == newPartitions.size()
                            && ends.values().stream().allMatch(end -> end > 0);
                },
                PRODUCERS_NOTICE_WITHIN)) {
            failures.add("the producers wrote to none of " + newPartitions + " within "
                    + PRODUCERS_NOTICE_WITHIN.toSeconds() + " s");
            return failures;
        }
        Observations seen = lab.generation().observations();
        Duration ttl = lab.settings().ttl();
        Duration firesWithin = ttl.plus(grace).plus(lab.settings().settle());

        List<String> first = moved.subList(0, silentEachTime);
        first.forEach(lab.fleet()::silence);
        failures.addAll(firedOnTime(seen, first, 0, ttl, firesWithin, "silent on an added partition"));

        List<String> groups =
                List.of(ingest, CompensatorTopology.pushGroup(lab.generation().group(Role.COMPENSATOR)));
        Map<TopicPartition, Long> ends = ends(lab.admin(), ingest, newPartitions);
        for (String group : groups) {
            if (!Waiting.until(() -> readUpTo(lab.admin(), group, ends), readWithin)) {
                failures.add("group " + group + " had not read the added partitions up to " + ends + " within "
                        + readWithin.toSeconds() + " s: it committed " + committed(lab.admin(), group, ends.keySet()));
            }
        }

        // the operator goes on with the topics Lapse writes and reads back: the compensator's streams read both
        List<String> written = List.of(
                lab.generation().topics().pulled(), lab.generation().topics().expired());
        for (String topic : written) {
            lab.admin()
                    .createPartitions(
                            Map.of(topic, NewPartitions.increaseTo(partitionCount(lab.admin(), topic) + added)))
                    .all()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }

        List<String> second = moved.subList(silentEachTime, 2 * silentEachTime);
        long flushedAt;
        // connected first: a client's first start on a loaded machine can take longer than the ttl
        RedisClient client = RedisClient.create(lab.redis().uri());
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            second.forEach(lab.fleet()::silence);
            Waiting.sleep(FLUSH_AFTER_SILENCE);
            redis.sync().flushall();
            flushedAt = System.currentTimeMillis();
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        log.info("{} more partitions to {}; Redis flushed", added, written);
        long firstDeadline = seen.newestPushes(second).values().stream()
                        .mapToLong(Long::longValue)
                        .min()
                        .orElse(Long.MAX_VALUE)
                + ttl.toMillis();
        if (flushedAt >= firstDeadline) {
            failures.add("Redis was flushed " + (flushedAt - firstDeadline) + " ms after the first deadline of the"
                    + " orders silent then: only the mirror's copy of them was to be tried");
        }
        failures.addAll(firedOnTime(
                seen, second, flushedAt, ttl, firesWithin, "silent on an added partition, then Redis flushed"));
        return failures;
    }

    /**
     * Waits until every order has an expiry and a pull result, then checks each was first fired with the deadline of
     * its newest push, at most {@link #grace} after that deadline or {@code recoveredAt}, whichever is later.
     */
    private List<String> firedOnTime(
            Observations seen, List<String> orders, long recoveredAt, Duration ttl, Duration within, String what) {
        List<String> failures = new ArrayList<>();
        if (!Waiting.until(() -> seen.allExpiredAndAnswered(orders), within)) {
            failures.add(orders.stream()
                            .filter(id -> !seen.allExpiredAndAnswered(List.of(id)))
                            .count()
                    + " of " + orders.size() + " orders " + what + " were not fired and pulled within "
                    + within.toSeconds() + " s: " + orders);
        }
        Map<String, Long> newest = seen.newestPushes(orders);
        Map<String, List<Seen.Expiry>> expiries = seen.expiries().stream()
                .filter(e -> newest.containsKey(e.orderId()))
                .collect(Collectors.groupingBy(Seen.Expiry::orderId));
        long slowest = -1;
        for (String order : orders) {
            long deadline = newest.get(order) + ttl.toMillis();
            slowest = Math.max(
                    slowest,
                    expiries.getOrDefault(order, List.of()).stream()
                            .filter(e -> e.deadline() == deadline)
                            .mapToLong(e -> e.appendedAt() - deadline)
                            .min()
                            .orElse(-1));
            long due = Math.max(deadline, recoveredAt) + grace.toMillis();
            boolean onTime = expiries.getOrDefault(order, List.of()).stream()
                    .anyMatch(e -> e.deadline() == deadline && e.appendedAt() >= deadline && e.appendedAt() <= due);
            if (!onTime) {
                failures.add(order + " (" + what + ") was not fired for its deadline within " + grace.toSeconds()
                        + " s; its expiries: "
                        + expiries.getOrDefault(order, List.of()).stream()
                                .map(e -> "deadline " + (e.deadline() - deadline) + " ms off, appended "
                                        + (e.appendedAt() - deadline) + " ms after the deadline by " + e.source())
                                .toList());
            }
        }
        log.info("{} orders {}: the slowest first fired {} ms after its deadline", orders.size(), what, slowest);
        return failures;
    }

    private static int partition(String orderId, int partitions) {
        return LibrdkafkaPartitioner.partition(orderId.getBytes(StandardCharsets.UTF_8), partitions);
    }

    private static int partitionCount(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .get(topic)
                .partitions()
                .size();
    }

    /** Each partition's end offset now (committed + behind, as the group's lag has it); empty without an answer. */
    private static Map<TopicPartition, Long> ends(Admin admin, String group, List<TopicPartition> partitions) {
        try {
            GroupLag lag = GroupLag.of(admin, group, partitions, ADMIN_TIMEOUT);
            Map<TopicPartition, Long> ends = new HashMap<>();
            lag.committed()
                    .forEach((partition, at) ->
                            ends.put(partition, at + lag.byPartition().get(partition)));
            return ends;
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    /** The offsets the group committed on these partitions (0 where none); empty without an answer. */
    private static Map<TopicPartition, Long> committed(
            Admin admin, String group, Collection<TopicPartition> partitions) {
        try {
            return GroupLag.of(admin, group, partitions, ADMIN_TIMEOUT).committed();
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    private static boolean readUpTo(Admin admin, String group, Map<TopicPartition, Long> ends) {
        Map<TopicPartition, Long> committed = committed(admin, group, ends.keySet());
        return !ends.isEmpty()
                && ends.entrySet().stream()
                        .allMatch(end -> committed.getOrDefault(end.getKey(), -1L) >= end.getValue());
    }
}
