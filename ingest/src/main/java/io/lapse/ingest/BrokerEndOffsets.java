package io.lapse.ingest;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/** Asks the broker, through an admin client, for the end offsets of partitions and the partition counts of topics. */
final class BrokerEndOffsets implements EndOffsetProbe.Question, AutoCloseable {

    private static final int TIMEOUT_MS = 5_000;

    private final Admin admin;
    private final List<String> topics;
    private final IsolationLevel isolation;

    /** @param isolation the consumer's: with read_committed it never reads past the last stable offset */
    BrokerEndOffsets(Admin admin, Collection<String> topics, IsolationLevel isolation) {
        this.admin = admin;
        this.topics = List.copyOf(Set.copyOf(topics));
        this.isolation = isolation;
    }

    @Override
    public CompletableFuture<CaughtUpProof> ask(long askedAt, Set<TopicPartition> partitions) {
        CompletableFuture<Map<String, Integer>> counted = admin.describeTopics(
                        topics, new DescribeTopicsOptions().timeoutMs(TIMEOUT_MS))
                .allTopicNames()
                .toCompletionStage()
                .toCompletableFuture()
                .thenApply(BrokerEndOffsets::partitionCounts);
        CompletableFuture<Map<TopicPartition, Long>> ends = partitions.isEmpty()
                ? CompletableFuture.completedFuture(Map.of())
                : admin.listOffsets(
                                partitions.stream()
                                        .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest())),
                                new ListOffsetsOptions(isolation).timeoutMs(TIMEOUT_MS))
                        .all()
                        .toCompletionStage()
                        .toCompletableFuture()
                        .thenApply(BrokerEndOffsets::offsets);
        return counted.thenCombine(ends, (counts, offsets) -> new CaughtUpProof(askedAt, offsets, counts));
    }

    /** The end offset of every partition of one topic, by partition number. */
    CompletableFuture<Map<Integer, Long>> ofTopic(String topic) {
        return admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs(TIMEOUT_MS))
                .allTopicNames()
                .toCompletionStage()
                .toCompletableFuture()
                .thenCompose(described -> admin.listOffsets(
                                described.get(topic).partitions().stream()
                                        .collect(Collectors.toMap(
                                                info -> new TopicPartition(topic, info.partition()),
                                                info -> OffsetSpec.latest())),
                                new ListOffsetsOptions(isolation).timeoutMs(TIMEOUT_MS))
                        .all()
                        .toCompletionStage()
                        .toCompletableFuture())
                .thenApply(answers -> {
                    Map<Integer, Long> ends = new HashMap<>();
                    answers.forEach((partition, info) -> ends.put(partition.partition(), info.offset()));
                    return ends;
                });
    }

    private static Map<String, Integer> partitionCounts(Map<String, TopicDescription> topics) {
        Map<String, Integer> counts = new HashMap<>();
        topics.forEach(
                (name, description) -> counts.put(name, description.partitions().size()));
        return counts;
    }

    private static Map<TopicPartition, Long> offsets(Map<TopicPartition, ListOffsetsResultInfo> answers) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        answers.forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
