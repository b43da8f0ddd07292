package io.lapse.operations.status;

import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Show;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Which timer shards a running timer serves: the timers' consumer group assigns them the partitions of the shard
 * topic (see ShardOwnership), so its members' assignments say which shards nothing fires from.
 *
 * @param timers   members of the timers' group
 * @param unserved shards no member is assigned, ascending
 */
public record TimerOwners(int timers, List<Integer> unserved) {

    public TimerOwners {
        unserved = List.copyOf(unserved);
    }

    public static TimerOwners of(Connections connections, String group, String shardTopic, int shards) {
        ConsumerGroupDescription description;
        try {
            description = connections
                    .kafka(connections
                            .admin()
                            .describeConsumerGroups(List.of(group))
                            .all())
                    .get(group);
        } catch (GroupIdNotFoundException e) {
            return new TimerOwners(0, IntStream.range(0, shards).boxed().toList());
        }
        Set<Integer> served = description.members().stream()
                .flatMap(m -> m.assignment().topicPartitions().stream())
                .filter(p -> p.topic().equals(shardTopic))
                .map(TopicPartition::partition)
                .collect(Collectors.toSet());
        return new TimerOwners(
                description.members().size(),
                IntStream.range(0, shards)
                        .filter(s -> !served.contains(s))
                        .boxed()
                        .toList());
    }

    String describe(int shards) {
        if (unserved.isEmpty()) {
            return "all " + shards + " served by " + Show.count(timers, "timer");
        }
        if (timers == 0) {
            return "none served: no timer runs";
        }
        return (shards - unserved.size()) + " of " + shards + " served by " + Show.count(timers, "timer")
                + "; not served: " + unserved;
    }
}
