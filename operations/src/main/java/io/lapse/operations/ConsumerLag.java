package io.lapse.operations;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** How many records a consumer group has not committed yet, over the partitions it has committed on. */
final class ConsumerLag {

    /**
     * @param role  which Lapse service the group belongs to
     * @param lag   records behind the end of the partitions; null when the group has committed nothing
     */
    record GroupLag(String role, String group, Long lag, int partitions) {}

    private ConsumerLag() {}

    static GroupLag of(Connections connections, String role, String group) {
        Map<TopicPartition, OffsetAndMetadata> committed = connections.kafka(
                connections.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        Map<TopicPartition, Long> positions = committed.entrySet().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        if (positions.isEmpty()) {
            return new GroupLag(role, group, null, 0);
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = connections.kafka(connections
                .admin()
                .listOffsets(positions.keySet().stream()
                        .collect(Collectors.toMap(Function.identity(), tp -> OffsetSpec.latest())))
                .all());
        long lag = positions.entrySet().stream()
                .filter(e -> ends.get(e.getKey()) != null)
                .mapToLong(e ->
                        Math.max(0, Objects.requireNonNull(ends.get(e.getKey())).offset() - e.getValue()))
                .sum();
        return new GroupLag(role, group, lag, positions.size());
    }
}
