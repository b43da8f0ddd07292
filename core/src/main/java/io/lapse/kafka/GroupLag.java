package io.lapse.kafka;

import io.lapse.internal.Exceptions;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Records a consumer group has not committed yet, partition by partition: the end offset less the committed one, from
 * the broker's view, so that lag shows even while a consumer is stuck or gone. The metrics, {@code lapse status} and
 * the benchmark and the soak all count it here.
 *
 * @param byPartition records behind, never negative
 * @param committed the offset the group has committed on each of these partitions, 0 where it has none: where the
 *     first record it has not committed lies
 */
public record GroupLag(Map<TopicPartition, Long> byPartition, Map<TopicPartition, Long> committed) {

    private static final Comparator<TopicPartition> IN_ORDER =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    public GroupLag {
        byPartition = inOrder(byPartition);
        committed = inOrder(committed);
        if (!byPartition.keySet().equals(committed.keySet())) {
            throw new IllegalArgumentException(
                    "lag on " + byPartition.keySet() + " but offsets on " + committed.keySet());
        }
    }

    /** Over the partitions the group has committed on; none when it has committed nothing. */
    public static GroupLag ofCommitted(Admin admin, String group, Duration timeout) {
        Map<TopicPartition, OffsetAndMetadata> committed = committed(admin, group, timeout);
        return of(admin, committed, committed.keySet(), timeout);
    }

    /** Over these partitions, counting one the group has not committed on from its first offset. */
    public static GroupLag of(Admin admin, String group, Collection<TopicPartition> partitions, Duration timeout) {
        return of(admin, committed(admin, group, timeout), partitions, timeout);
    }

    private static GroupLag of(
            Admin admin,
            Map<TopicPartition, OffsetAndMetadata> committed,
            Collection<TopicPartition> partitions,
            Duration timeout) {
        Map<TopicPartition, ListOffsetsResultInfo> ends = answer(
                admin.listOffsets(partitions.stream()
                                .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest())))
                        .all(),
                timeout);
        Map<TopicPartition, Long> behind = new TreeMap<>(IN_ORDER);
        Map<TopicPartition, Long> at = new TreeMap<>(IN_ORDER);
        ends.forEach((partition, end) -> {
            OffsetAndMetadata done = committed.get(partition);
            at.put(partition, done == null ? 0 : done.offset());
            behind.put(partition, Math.max(0, end.offset() - at.get(partition)));
        });
        return new GroupLag(behind, at);
    }

    public long total() {
        return byPartition.values().stream().mapToLong(Long::longValue).sum();
    }

    public Map<String, Long> byTopic() {
        return byPartition.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().topic(), Map.Entry::getValue, Long::sum, TreeMap::new));
    }

    /** The committed offset of every partition the group is behind on: where its oldest unfinished record lies. */
    public Map<TopicPartition, Long> lagging() {
        Map<TopicPartition, Long> lagging = new TreeMap<>(IN_ORDER);
        byPartition.forEach((partition, behind) -> {
            if (behind > 0) {
                lagging.put(partition, committed.get(partition));
            }
        });
        return Collections.unmodifiableMap(lagging);
    }

    private static Map<TopicPartition, Long> inOrder(Map<TopicPartition, Long> byPartition) {
        TreeMap<TopicPartition, Long> inOrder = new TreeMap<>(IN_ORDER);
        inOrder.putAll(byPartition);
        return Collections.unmodifiableMap(inOrder);
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String group, Duration timeout) {
        Map<TopicPartition, OffsetAndMetadata> committed = new TreeMap<>(IN_ORDER);
        answer(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(), timeout)
                .forEach((partition, offset) -> {
                    // null: a partition the group knows of without a committed offset
                    if (offset != null) {
                        committed.put(partition, offset);
                    }
                });
        return committed;
    }

    private static <T> T answer(KafkaFuture<T> reply, Duration timeout) {
        try {
            return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("Kafka gave no answer within " + timeout);
        } catch (ExecutionException e) {
            throw Exceptions.asUnchecked(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking Kafka for a group's offsets", e);
        }
    }
}
