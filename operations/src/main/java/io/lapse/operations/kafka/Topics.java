package io.lapse.operations.kafka;

import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.OnCallError;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** What the broker's metadata says about topics, for commands that must not guess. */
public final class Topics {

    private Topics() {}

    /** The topic's partition count; stops the command when the topic does not exist. */
    public static int partitions(Connections connections, String topic) {
        OptionalInt count = partitionCount(connections, topic);
        if (count.isEmpty()) {
            Set<String> known = new TreeSet<>(
                    connections.kafka(connections.admin().listTopics().names()));
            throw new OnCallError("unknown topic '" + topic + "' (the broker has: " + String.join(", ", known) + ")");
        }
        return count.getAsInt();
    }

    /** The topic's partition count, or empty when it does not exist. */
    public static OptionalInt partitionCount(Connections connections, String topic) {
        try {
            Map<String, TopicDescription> found = connections.kafka(
                    connections.admin().describeTopics(Set.of(topic)).allTopicNames());
            return OptionalInt.of(found.get(topic).partitions().size());
        } catch (UnknownTopicOrPartitionException e) {
            return OptionalInt.empty();
        }
    }
}
