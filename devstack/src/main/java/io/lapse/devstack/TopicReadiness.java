package io.lapse.devstack;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creating a topic completes when the controller has committed it; the broker learns about it
 * from the metadata log a moment later. Until then producers see UNKNOWN_TOPIC_OR_PARTITION and
 * consumers get no assignment, which makes tests flaky, so we wait for the broker's view.
 */
public final class TopicReadiness {

    private TopicReadiness() {}

    /** Creates the topic and returns once the broker knows a leader for each of its partitions. */
    public static void createAndAwait(Admin admin, NewTopic topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            admin.createTopics(List.of(topic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            while (!hasLeaders(admin, topic, timeout)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Topic " + topic.name() + " has no leaders after " + timeout);
                }
                Sleep.briefly(Duration.ofMillis(20));
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "Cannot create topic " + topic.name() + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Creating topic " + topic.name() + " timed out after " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + topic.name(), e);
        }
    }

    /** Admin asks a broker, which answers from its own metadata cache: exactly the view we need. */
    private static boolean hasLeaders(Admin admin, NewTopic topic, Duration timeout)
            throws InterruptedException, TimeoutException, ExecutionException {
        TopicDescription description;
        try {
            description = admin.describeTopics(List.of(topic.name()))
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic.name());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false;
            }
            throw e;
        }
        return description.partitions().size() == topic.numPartitions()
                && description.partitions().stream()
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
    }
}
