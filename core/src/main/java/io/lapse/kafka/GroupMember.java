package io.lapse.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A consumer that is a static member of its group (see {@link InstanceSlot}). Closing it leaves the group at once when
 * other members can take its partitions over, and otherwise stays a member until its session times out, so that the
 * restarted process gets them back as soon as it joins ({@link GroupDeparture}); a process that dies without closing
 * stays a member until then too, or until its successor presents the same id.
 */
final class GroupMember extends KafkaConsumer<byte[], byte[]> {

    private final InstanceSlot slot;
    private final String groupId;
    private final Supplier<Admin> admins;
    // the consumer's owner closes it, on the thread that polls; a second close asks the broker nothing
    private boolean closed;

    GroupMember(Map<String, Object> properties, InstanceSlot slot, String groupId, Supplier<Admin> admins) {
        super(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.slot = slot;
        this.groupId = groupId;
        this.admins = admins;
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
