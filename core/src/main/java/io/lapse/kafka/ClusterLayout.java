package io.lapse.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a process learnt of its Kafka cluster before building its services: the cluster's id and the partition count
 * of each topic of its services that exists. Services read it when built instead of asking the cluster themselves.
 */
public record ClusterLayout(String clusterId, Map<String, Integer> partitions) {

    public ClusterLayout {
        if (clusterId == null || clusterId.isBlank()) {
            throw new IllegalArgumentException("a cluster layout needs the cluster's id");
        }
        partitions = Map.copyOf(partitions);
    }

    /** The topic's partition count, empty when it did not exist. */
    public Optional<Integer> partitions(String topic) {
        return Optional.ofNullable(partitions.get(topic));
    }

    /** This layout with the topic at this many partitions: created or grown since it was read. */
    ClusterLayout with(String topic, int count) {
        Map<String, Integer> changed = new HashMap<>(partitions);
        changed.put(topic, count);
        return new ClusterLayout(clusterId, changed);
    }
}
