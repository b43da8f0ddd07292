package io.lapse.kafka;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A consumer that is a static member of its group (see {@link InstanceSlot}). Closing it leaves the group at once,
 * so that a stopped instance's partitions move to the others without waiting for its session to time out; a
 * process that dies without closing stays a member until then, or until its successor presents the same id.
 */
final class GroupMember extends KafkaConsumer<byte[], byte[]> {

    private final InstanceSlot slot;

    GroupMember(Map<String, Object> properties, InstanceSlot slot) {
        super(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.slot = slot;
    }

    @Override
    public void close() {
        close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
    }

    @Override
    @SuppressWarnings("deprecation")
    public void close(Duration timeout) {
        close(CloseOptions.timeout(timeout)
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
    }

    @Override
    public void close(CloseOptions options) {
        try {
            super.close(options);
        } finally {
            slot.close();
        }
    }
}
