package io.lapse.compensator.fold;

import io.lapse.compensator.mirror.Blocking;
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
 * published expiry and skips none. A committed offset means the mirror holds everything before it: the push folder
 * commits the pushes' offsets in the transaction that hands their updates to the mirror's repartition topic, and Kafka
 * Streams, with exactly-once processing, commits the other inputs' offsets with what it wrote to the store's changelog.
 * First the pushes, pull results and expiries; then the repartition topic (the pushes' hand-overs, and the pull results
 * and expiries read in another partition than their order's), which is written in transactions: each ends with a
 * marker, so having processed everything but the last offset is having processed everything.
 */
public final class CaughtUp {

    private static final Duration POLL = Duration.ofMillis(100);

    /**
     * A consumer group's offsets on some topics.
     *
     * @param slack offsets per partition it may stay behind: a transaction's commit marker, which no consumer commits
     */
    record Reading(String group, List<String> topics, long slack) {
        Reading {
            topics = List.copyOf(topics);
        }
    }

    private final Admin admin;
    private final List<List<Reading>> stages;
    private final Clock clock;

    /** The wait for the compensator of this configuration: its three input topics, then its repartition topic. */
    public static CaughtUp of(Admin admin, LapseConfig config, Clock clock) {
        String applicationId = config.compensator().applicationId();
        TopicNames topics = config.topics();
        return new CaughtUp(
                admin,
                List.of(
                        List.of(
                                new Reading(CompensatorTopology.pushGroup(applicationId), List.of(topics.push()), 0),
                                new Reading(applicationId, List.of(topics.pulled(), topics.expired()), 0)),
                        List.of(new Reading(
                                applicationId, List.of(CompensatorTopology.repartitionTopic(applicationId)), 1))),
                clock);
    }

    /** @param stages each waited for in turn, its end offsets read when the one before is done */
    CaughtUp(Admin admin, List<List<Reading>> stages, Clock clock) {
        this.admin = admin;
        this.stages = List.copyOf(stages);
        this.clock = clock;
    }

    /** @return records the compensator still had to process when the wait ended: 0 when it caught up */
    public long await(Duration timeout) throws InterruptedException {
        long deadline = clock.millis() + timeout.toMillis();
        for (List<Reading> stage : stages) {
            long behind = awaitStage(stage, deadline);
            if (behind > 0) {
                return behind;
            }
        }
        return 0;
    }

    private long awaitStage(List<Reading> stage, long deadline) throws InterruptedException {
        Map<Reading, Map<TopicPartition, Long>> ends = new HashMap<>();
        stage.forEach(reading -> ends.put(reading, ends(reading.topics())));
        while (true) {
            long behind = 0;
            for (Reading reading : stage) {
                Map<TopicPartition, OffsetAndMetadata> committed = committed(reading.group());
                for (Map.Entry<TopicPartition, Long> end : ends.get(reading).entrySet()) {
                    OffsetAndMetadata offset = committed.get(end.getKey());
                    behind += Math.max(0, end.getValue() - reading.slack() - (offset == null ? 0 : offset.offset()));
                }
            }
            if (behind == 0 || clock.millis() >= deadline) {
                return behind;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> committed(String group) {
        return Blocking.await(
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                "read the offsets of consumer group " + group);
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
