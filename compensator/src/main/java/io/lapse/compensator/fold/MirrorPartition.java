package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.MirrorInput;
import io.lapse.kafka.KeyPartitions;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * The partition of the mirror an order's state lives in: the Java client's partition of its orderId over the
 * repartition topic's partitions, which is where Kafka Streams' default partitioner put every input while every input
 * took the repartition topic, so that a store and changelog written then read the same. It depends on that partition
 * count alone, never on the input topics' partitions or on how their producers partition.
 */
final class MirrorPartition implements StreamPartitioner<String, MirrorInput> {

    private final int partitions;

    /** @param partitions the repartition topic's partition count, fixed once the mirror exists */
    MirrorPartition(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("the mirror needs at least one partition, not " + partitions);
        }
        this.partitions = partitions;
    }

    int count() {
        return partitions;
    }

    int of(String orderId) {
        return KeyPartitions.javaClient(orderId.getBytes(StandardCharsets.UTF_8), partitions);
    }

    @Override
    public Optional<Set<Integer>> partitions(String topic, String orderId, MirrorInput input, int numPartitions) {
        // numPartitions is the repartition topic's, which Kafka Streams keeps at the count it was given
        return Optional.of(Set.of(of(orderId)));
    }
}
