package io.lapse.kafka;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a static member that closes cleanly leaves its group or stays in it until its session times out.
 * <p>
 * Leaving hands its partitions to the other members at once, which is what they are for. A member alone in its group
 * stays: the group would otherwise be empty, and the broker holds the first join of an empty group back by
 * {@code group.initial.rebalance.delay.ms} (3 s by default) and then runs a full rebalance, while a restarted process
 * that presents the same {@code group.instance.id} within the session timeout is handed its partitions back as soon as
 * it joins. Measured with a stock broker (docs/benchmarks.md, "Restarts"): a gracefully restarted timer served its
 * shards 6 s after its start when it had left, against its start-up time when it had not. A member that stays and
 * does not come back delays only a successor with another id, by the session timeout at most, and nothing else was
 * served by it anyway.
 */
public final class GroupDeparture {

    private static final Logger log = LoggerFactory.getLogger(GroupDeparture.class);
    private static final int DESCRIBE_TIMEOUT_MS = 2_000;

    private GroupDeparture() {}

    /**
     * @param instanceId this process's group.instance.id (Kafka Streams' threads present it with a suffix "-n"), or
     *                   null for a dynamic member, which always leaves
     */
    public static boolean leaves(Supplier<Admin> admins, String groupId, String instanceId) {
        if (instanceId == null) {
            return true;
        }
        try (Admin admin = admins.get()) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(
                            List.of(groupId), new DescribeConsumerGroupsOptions().timeoutMs(DESCRIBE_TIMEOUT_MS))
                    .describedGroups()
                    .get(groupId)
                    .get(DESCRIBE_TIMEOUT_MS + 500L, TimeUnit.MILLISECONDS);
            return group.members().stream().anyMatch(member -> !ofThisProcess(member, instanceId));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.info("could not tell whether group {} has other members ({}); leaving it", groupId, e.toString());
            return true;
        }
    }

    static boolean ofThisProcess(MemberDescription member, String instanceId) {
        Optional<String> id = member.groupInstanceId();
        return id.isPresent() && (id.get().equals(instanceId) || id.get().startsWith(instanceId + "-"));
    }
}
