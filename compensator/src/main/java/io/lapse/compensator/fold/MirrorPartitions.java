package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Blocking;
import io.lapse.kafka.ClusterLayout;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many partitions the mirror has: fixed when it is first built, because an order's partition depends on it. Read
 * from the repartition topic once it exists (Lapse 0.1 gave it, and the changelog, the input topics' largest count,
 * and so does a first start now); from the changelog if the repartition topic was deleted by hand.
 */
public final class MirrorPartitions {

    private static final Logger log = LoggerFactory.getLogger(MirrorPartitions.class);

    private MirrorPartitions() {}

    /** From the partitions the runtime read before building (the changelog and repartition topic among them). */
    public static int of(ClusterLayout cluster, String applicationId, Collection<String> inputs) {
        return cluster.partitions(CompensatorTopology.repartitionTopic(applicationId))
                .or(() -> cluster.partitions(CompensatorTopology.changelog(applicationId)))
                .orElseGet(() -> inputs.stream()
                        .mapToInt(topic -> cluster.partitions(topic)
                                .orElseThrow(() -> new IllegalStateException("topic " + topic + " does not exist")))
                        .max()
                        .orElseThrow());
    }

    /**
     * Gives every store's changelog as many partitions as the largest input topic has, which Kafka Streams requires of
     * them once a partition was added to an input (a task per partition, each with its partition of every store), and
     * refuses to assign any task until then. Safe, because no order lives in a partition at or beyond the repartition
     * topic's count, which the changelogs' never were below: the partitions added stay empty.
     */
    public static void coverInputs(Admin admin, String applicationId, Collection<String> inputs) {
        int needed = inputs.stream()
                .mapToInt(topic -> count(admin, topic).orElse(0))
                .max()
                .orElse(0);
        for (String changelog : CompensatorTopology.changelogs(applicationId)) {
            // absent: Kafka Streams creates it with the right count
            count(admin, changelog)
                    .filter(current -> needed > current)
                    .ifPresent(current -> grow(admin, changelog, current, needed));
        }
    }

    private static void grow(Admin admin, String changelog, int current, int needed) {
        Blocking.await(
                admin.createPartitions(Map.of(changelog, NewPartitions.increaseTo(needed)))
                        .all(),
                "add partitions to " + changelog);
        log.info(
                "the input topics have {} partitions: added {} to the changelog {}, which had {}",
                needed,
                needed - current,
                changelog,
                current);
    }

    private static Optional<Integer> count(Admin admin, String topic) {
        try {
            Map<String, TopicDescription> found =
                    Blocking.await(admin.describeTopics(List.of(topic)).allTopicNames(), "describe topic " + topic);
            return Optional.of(found.get(topic).partitions().size());
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
