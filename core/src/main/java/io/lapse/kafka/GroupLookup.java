package io.lapse.kafka;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;

/** A consumer group's members and state as the broker describes them, asked briefly: a member's start or stop waits. */
public final class GroupLookup {

    private static final int DESCRIBE_TIMEOUT_MS = 2_000;

    private GroupLookup() {}

    public static ConsumerGroupDescription describe(Admin admin, String groupId)
            throws InterruptedException, ExecutionException, TimeoutException {
        return admin.describeConsumerGroups(
                        List.of(groupId), new DescribeConsumerGroupsOptions().timeoutMs(DESCRIBE_TIMEOUT_MS))
                .describedGroups()
                .get(groupId)
                .get(DESCRIBE_TIMEOUT_MS + 500L, TimeUnit.MILLISECONDS);
    }
}
