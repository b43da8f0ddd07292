package io.lapse.bench.compensator;

import io.lapse.bench.harness.RunSandbox;
import io.lapse.compensator.fold.CompensatorTopology;
import java.time.Duration;
import java.util.List;

/**
 * Whether an application has folded the whole backlog: its consumer groups' committed offsets reached the end offsets
 * of the topics they read, give or take a slack per partition.
 *
 * @param topics in the order they are asked: a topic the application creates itself is asked only once the ones
 *               before it are drained, by when it exists
 */
record Drained(RunSandbox sandbox, List<Topic> topics) {

    private static final Duration POLL = Duration.ofMillis(100);

    Drained {
        topics = List.copyOf(topics);
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("no topic to drain");
        }
    }

    /**
     * @param group the consumer group that reads it
     * @param slack records per partition that may stay uncommitted: a topic written in transactions ends each
     *              partition with a commit marker, an offset no consumer commits past
     */
    record Topic(String group, String name, int slack) {}

    /** A plain application reading the run's push topic. */
    static Drained ofPushes(RunSandbox sandbox, String applicationId) {
        return new Drained(
                sandbox,
                List.of(new Topic(applicationId, sandbox.config.topics().push(), 0)));
    }

    /**
     * The run's compensator: the push topic read and handed over by its push folder, and everything it repartitioned
     * (the hand-overs among it) folded into its store.
     */
    static Drained ofCompensator(RunSandbox sandbox) {
        String applicationId = sandbox.config.compensator().applicationId();
        return new Drained(
                sandbox,
                List.of(
                        new Topic(
                                CompensatorTopology.pushGroup(applicationId),
                                sandbox.config.topics().push(),
                                0),
                        new Topic(applicationId, CompensatorTopology.repartitionTopic(applicationId), 1)));
    }

    /** Polls until drained: the time to find it done is at most one poll. */
    void await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!now()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(topics + " were not folded within " + timeout);
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private boolean now() {
        return topics.stream()
                .allMatch(topic ->
                        sandbox.lag(topic.group(), topic.name()) <= (long) topic.slack() * sandbox.partitions());
    }
}
