package io.lapse.kafka;

import java.util.Collection;
import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partitions of a stable group's topics that no member of it is assigned.
 * <p>
 * A static member that returns to a group it never left ({@link GroupDeparture}) while the group is stable is handed
 * its previous assignment without a rebalance; when it is the group's leader, Kafka skips the assignment and takes the
 * topics' metadata at that join for the one the assignment was made from. Partitions added while it was away (a timer
 * started with a larger timer.shards grows its shard topic before it joins; an operator adds partitions to the push
 * topic while ingest is stopped) are then held by no member, and stay so: the leader's check for new partitions
 * compares later metadata with what it saw at that join, which had them already.
 */
final class UnassignedPartitions {

    private static final Logger log = LoggerFactory.getLogger(UnassignedPartitions.class);

    private UnassignedPartitions() {}

    /**
     * @param partitions every partition of the group's topics
     * @return those no member holds; none when the group is rebalancing or cannot be described
     */
    static Set<TopicPartition> of(Supplier<Admin> admins, String groupId, Collection<TopicPartition> partitions) {
        try (Admin admin = admins.get()) {
            ConsumerGroupDescription group = GroupLookup.describe(admin, groupId);
            if (group.groupState() != GroupState.STABLE) {
                // a rebalance under way assigns every partition the leader sees
                return Set.of();
            }
            Set<TopicPartition> unassigned = new TreeSet<>(
                    Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            unassigned.addAll(partitions);
            group.members()
                    .forEach(member -> member.assignment().topicPartitions().forEach(unassigned::remove));
            return unassigned;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.warn(
                    "could not tell whether every partition of {} has a member of group {} ({})",
                    partitions,
                    groupId,
                    e.toString());
            return Set.of();
        }
    }
}
