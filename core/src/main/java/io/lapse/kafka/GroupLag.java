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
 * the benchmark all count it here.
 *
 * @param byPartition records behind, never negative
 */
public record GroupLag(Map<TopicPartition, Long> byPartition) {

    private static final Comparator<TopicPartition> IN_ORDER =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    public GroupLag {
        TreeMap<TopicPartition, Long> inOrder = new TreeMap<>(IN_ORDER);
        inOrder.putAll(byPartition);
        byPartition = Collections.unmodifiableMap(inOrder);
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
        ends.forEach((partition, end) -> {
            OffsetAndMetadata done = committed.get(partition);
            behind.put(partition, Math.max(0, end.offset() - (done == null ? 0 : done.offset())));
        });
        return new GroupLag(behind);
    }

    public long total() {
        return byPartition.values().stream().mapToLong(Long::longValue).sum();
    }

    public Map<String, Long> byTopic() {
        return byPartition.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().topic(), Map.Entry::getValue, Long::sum, TreeMap::new));
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
