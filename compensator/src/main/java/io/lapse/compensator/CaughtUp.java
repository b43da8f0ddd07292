package io.lapse.compensator;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Waits until the compensator has processed its input topics up to where they ended when the wait began, so that a
 * rebuild starting then knows every status and every expiry published before Redis lost its data: it then repeats no
 * published expiry and skips none. With exactly-once processing a committed offset means the mirror's changelog holds
 * everything before it. First the pushes, pull results and expiries; then the repartition topic those read in another
 * partition than their order's were forwarded to, which Kafka Streams writes in transactions: each ends with a marker,
 * so having processed everything but the last offset is having processed everything.
 */
final class CaughtUp {

    private static final Duration POLL = Duration.ofMillis(100);

    private final Admin admin;
    private final String groupId;
    private final List<String> inputs;
    private final String repartitionTopic;
    private final Clock clock;

    /** The wait for the compensator of this configuration: its three input topics, then its repartition topic. */
    static CaughtUp of(Admin admin, LapseConfig config, Clock clock) {
        String applicationId = config.compensator().applicationId();
        TopicNames topics = config.topics();
        return new CaughtUp(
                admin,
                applicationId,
                List.of(topics.push(), topics.pulled(), topics.expired()),
                CompensatorTopology.repartitionTopic(applicationId),
                clock);
    }

    CaughtUp(Admin admin, String groupId, List<String> inputs, String repartitionTopic, Clock clock) {
        this.admin = admin;
        this.groupId = groupId;
        this.inputs = inputs;
        this.repartitionTopic = repartitionTopic;
        this.clock = clock;
    }

    /** @return records the compensator still had to process when the wait ended: 0 when it caught up */
    long await(Duration timeout) throws InterruptedException {
        long deadline = clock.millis() + timeout.toMillis();
        long behind = awaitOffsets(ends(inputs), 0, deadline);
        if (behind > 0) {
            return behind;
        }
        return awaitOffsets(ends(List.of(repartitionTopic)), 1, deadline);
    }

    private long awaitOffsets(Map<TopicPartition, Long> ends, long slack, long deadline) throws InterruptedException {
        while (true) {
            Map<TopicPartition, OffsetAndMetadata> committed = committed();
            long behind = 0;
            for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
                OffsetAndMetadata offset = committed.get(end.getKey());
                behind += Math.max(0, end.getValue() - slack - (offset == null ? 0 : offset.offset()));
            }
            if (behind == 0 || clock.millis() >= deadline) {
                return behind;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> committed() {
        return Blocking.await(
                admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(),
                "read the offsets of consumer group " + groupId);
    }

    /** The last stable offset of every partition of the topics; a topic that does not exist yet has none. */
    private Map<TopicPartition, Long> ends(Collection<String> topics) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicDescription topic : describe(topics)) {
            topic.partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        Blocking.await(
                        admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                                .all(),
                        "read the end offsets of " + topics)
                .forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    private Collection<TopicDescription> describe(Collection<String> topics) {
        Map<String, TopicDescription> found = new HashMap<>();
        for (String topic : topics) {
            try {
                found.put(
                        topic,
                        Blocking.await(
                                admin.describeTopics(List.of(topic))
                                        .topicNameValues()
                                        .get(topic),
                                "describe topic " + topic));
            } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        }
        return found.values();
    }
}
