package io.lapse.bench.compensator;

import io.lapse.bench.harness.RunSandbox;
import io.lapse.compensator.CompensatorTopology;
import java.time.Duration;
import java.util.List;

/**
 * Whether a Kafka Streams application has folded the whole backlog: its consumer group's committed offsets reached
 * the end offsets of the topics it reads, give or take a slack per partition.
 *
 * @param topics in the order they are asked: a topic the application creates itself is asked only once the ones
 *               before it are drained, by when it exists
 */
record Drained(RunSandbox sandbox, String group, List<Topic> topics) {

    private static final Duration POLL = Duration.ofMillis(100);

    Drained {
        topics = List.copyOf(topics);
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("no topic to drain for " + group);
        }
    }

    /**
     * @param slack records per partition that may stay uncommitted: a topic written in transactions ends each
     *              partition with a commit marker, an offset no consumer commits past
     */
    record Topic(String name, int slack) {}

    /** A plain application reading the run's push topic. */
    static Drained ofPushes(RunSandbox sandbox, String applicationId) {
        return new Drained(
                sandbox,
                applicationId,
                List.of(new Topic(sandbox.config.topics().push(), 0)));
    }

    /** The run's compensator: the push topic read, and everything it repartitioned folded into its store. */
    static Drained ofCompensator(RunSandbox sandbox) {
        String applicationId = sandbox.config.compensator().applicationId();
        return new Drained(
                sandbox,
                applicationId,
                List.of(
                        new Topic(sandbox.config.topics().push(), 0),
                        new Topic(CompensatorTopology.repartitionTopic(applicationId), 1)));
    }

    /** Polls until drained: the time to find it done is at most one poll. */
    void await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!now()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(group + " did not fold its backlog within " + timeout);
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private boolean now() {
        return topics.stream()
                .allMatch(topic -> sandbox.lag(group, topic.name()) <= (long) topic.slack() * sandbox.partitions());
    }
}
