package io.lapse.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer that is a static member of its group (see {@link InstanceSlot}). Closing it leaves the group at once when
 * other members can take its partitions over, and otherwise stays a member until its session times out, so that the
 * restarted process gets them back as soon as it joins ({@link GroupDeparture}); a process that dies without closing
 * stays a member until then too, or until its successor presents the same id. Such a return keeps the assignment made
 * before it, so after its first assignment a member asks for a rebalance when partitions of its topics have no member
 * ({@link UnassignedPartitions}).
 */
final class GroupMember extends KafkaConsumer<byte[], byte[]> {

    private static final Logger log = LoggerFactory.getLogger(GroupMember.class);

    private final InstanceSlot slot;
    private final String groupId;
    private final Supplier<Admin> admins;
    // the consumer's owner closes it, on the thread that polls; a second close asks the broker nothing
    private boolean closed;
    // on the polling thread: only a member's first join can return it to an assignment made before it
    private boolean coverageChecked;

    GroupMember(Map<String, Object> properties, InstanceSlot slot, String groupId, Supplier<Admin> admins) {
        super(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.slot = slot;
        this.groupId = groupId;
        this.admins = admins;
    }

    @Override
    public void subscribe(Collection<String> topics) {
        subscribe(topics, new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
        });
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
        List<String> subscribed = List.copyOf(topics);
        super.subscribe(subscribed, new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                listener.onPartitionsRevoked(partitions);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                listener.onPartitionsLost(partitions);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                listener.onPartitionsAssigned(partitions);
                // the first assignment that gives this member anything: a cooperative join may first give nothing,
                // while other members hand partitions over
                if (!coverageChecked && !assignment().isEmpty()) {
                    coverageChecked = true;
                    rebalanceIfUncovered(subscribed, assignment());
                }
            }
        });
    }

    private void rebalanceIfUncovered(List<String> topics, Collection<TopicPartition> assigned) {
        List<TopicPartition> every = topics.stream()
                .flatMap(topic -> partitionsFor(topic).stream())
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .toList();
        // a dynamic member never returns to an assignment; one holding every partition leaves none to nobody
        if (slot.id() == null || assigned.containsAll(every)) {
            return;
        }
        Set<TopicPartition> unassigned = UnassignedPartitions.of(admins, groupId, every);
        if (!unassigned.isEmpty()) {
            log.warn(
                    "no member of group {} holds partitions {}: this member returned to the assignment it had before"
                            + " they were added; rebalancing",
                    groupId,
                    unassigned);
            enforceRebalance("partitions added while the group's last member was away: " + unassigned);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            close(CloseOptions.groupMembershipOperation(departure()));
        }
    }

    @Override
    @SuppressWarnings("deprecation")
    public void close(Duration timeout) {
        if (!closed) {
            close(CloseOptions.timeout(timeout).withGroupMembershipOperation(departure()));
        }
    }

    private CloseOptions.GroupMembershipOperation departure() {
        return GroupDeparture.leaves(admins, groupId, slot.id())
                ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP;
    }

    @Override
    public void close(CloseOptions options) {
        closed = true;
        try {
            super.close(options);
        } finally {
            slot.close();
        }
    }
}
