package io.lapse.compensator.streams;

import io.lapse.compensator.mirror.Blocking;
import io.lapse.kafka.GroupLookup;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a failed stream thread's static membership out of the application's group once its replacement has joined.
 * <p>
 * Kafka Streams gives the replacement the next free thread index, and so another {@code group.instance.id} (the
 * configured one suffixed "-n"), while the failed thread closes without leaving. The group's rebalance then waits for
 * the failed member until its session times out (10 s, {@link io.lapse.kafka.KafkaClients#MEMBER_SESSION_TIMEOUT_MS}),
 * and the mirror stands still meanwhile: seen when partitions were added to the pulled and expired topics, which
 * fails a stream thread once. Removing it as soon as the group has another member (the replacement, or another
 * instance) lets that rebalance complete at once; not before, since an empty group's first join is held back by the
 * broker's {@code group.initial.rebalance.delay.ms}.
 */
final class ReplacedThreadMembers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplacedThreadMembers.class);
    private static final Duration LOOK_EVERY = Duration.ofMillis(200);

    private final Admin admin;
    private final String groupId;
    private final Duration within;
    private final Clock clock;
    private final ExecutorService removals = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "lapse-compensator-replaced-members");
        thread.setDaemon(true);
        return thread;
    });

    /** @param within how long to wait for another member: past the session timeout, the broker removed it anyway */
    ReplacedThreadMembers(Admin admin, String groupId, Duration within, Clock clock) {
        this.admin = admin;
        this.groupId = groupId;
        this.within = within;
        this.clock = clock;
    }

    /**
     * The group.instance.id a stream thread presents: Kafka Streams names its threads "…-StreamThread-n" and suffixes
     * the configured id with the same n. Empty for a dynamic member or a thread that is not a stream thread.
     */
    static Optional<String> instanceIdOf(String configured, String threadName) {
        int dash = threadName.lastIndexOf('-');
        String index = threadName.substring(dash + 1);
        if (configured == null
                || !threadName.substring(0, Math.max(dash, 0)).endsWith("-StreamThread")
                || index.isEmpty()
                || !index.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(configured + "-" + index);
    }

    /** Removes the member in the background, once the group has another; returns at once. */
    void removeOnceReplaced(String instanceId) {
        try {
            removals.execute(() -> removeOnceReplacedNow(instanceId));
        } catch (RuntimeException closed) {
            log.debug("not removing {}: closing", instanceId);
        }
    }

    private void removeOnceReplacedNow(String instanceId) {
        long until = clock.millis() + within.toMillis();
        while (clock.millis() < until && !Thread.currentThread().isInterrupted()) {
            try {
                ConsumerGroupDescription group = GroupLookup.describe(admin, groupId);
                boolean present = group.members().stream()
                        .anyMatch(member -> member.groupInstanceId().equals(Optional.of(instanceId)));
                if (!present) {
                    return; // its session ended, or it was never in
                }
                if (group.members().size() > 1) {
                    Blocking.await(
                            admin.removeMembersFromConsumerGroup(
                                            groupId,
                                            new RemoveMembersFromConsumerGroupOptions(
                                                    List.of(new MemberToRemove(instanceId))))
                                    .all(),
                            "remove " + instanceId + " from group " + groupId);
                    log.info("removed the failed stream thread's member {} from group {}", instanceId, groupId);
                    return;
                }
                Thread.sleep(LOOK_EVERY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // it leaves with its session at the latest: nothing is lost by giving up
                log.warn("could not remove the failed stream thread's member {} from group {}", instanceId, groupId, e);
                return;
            }
        }
    }

    @Override
    public void close() {
        removals.shutdownNow();
    }
}
