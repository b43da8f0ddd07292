package io.lapse.lifecycle;

import io.lapse.config.LapseConfig;
import io.lapse.config.TopicNames;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One service under one configuration: the consumer group it joins, the topics it reads and writes, and those whose
 * partition count it relies on. The runtime creates every topic of the services it runs
 * from these once, before it builds any; {@code lapse status}, the console, the consumer lag and the fault suite
 * read the groups here.
 *
 * @param group           its consumer group, named by {@link ServiceName#groupKey()}
 * @param readsRecords    whether its group consumes records, and so has a lag; the timer's shard group reads none
 * @param reads           the topics it reads
 * @param writes          the topics it produces to
 * @param exactPartitions topics that must have exactly this many partitions (the timer's shards)
 * @param internalTopics  topics its own machinery creates (Kafka Streams') whose partition count it reads when built
 */
public record ServiceDescriptor(
        ServiceName name,
        String group,
        boolean readsRecords,
        Set<String> reads,
        Set<String> writes,
        Map<String, Integer> exactPartitions,
        Set<String> internalTopics) {

    public ServiceDescriptor {
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        exactPartitions = Map.copyOf(exactPartitions);
        internalTopics = Set.copyOf(internalTopics);
        if (!union(reads, writes).containsAll(exactPartitions.keySet())) {
            throw new IllegalArgumentException(name + " fixes the partitions of a topic it neither reads nor writes");
        }
    }

    static ServiceDescriptor of(ServiceName name, LapseConfig config) {
        TopicNames topics = config.topics();
        return switch (name) {
            case INGEST ->
                new ServiceDescriptor(
                        name,
                        config.ingest().groupId(),
                        true,
                        Set.of(topics.push(), topics.pulled()),
                        Set.of(topics.dlq(), topics.fleetEvents()),
                        Map.of(),
                        Set.of());
            case TIMER ->
                new ServiceDescriptor(
                        name,
                        config.timer().groupId(),
                        false,
                        // the push and pulled topics in no group: what ingest has not applied, while it is away
                        Set.of(topics.timerShards(), topics.push(), topics.pulled()),
                        Set.of(topics.expired()),
                        Map.of(topics.timerShards(), config.timer().shards()),
                        Set.of());
            case PULLER ->
                new ServiceDescriptor(
                        name,
                        config.upstream().pullerGroupId(),
                        true,
                        Set.of(topics.expired(), topics.parked()),
                        Set.of(topics.pulled(), topics.parked(), topics.dlq()),
                        Map.of(),
                        Set.of());
            case COMPENSATOR ->
                new ServiceDescriptor(
                        name,
                        config.compensator().applicationId(),
                        true,
                        Set.of(topics.push(), topics.pulled(), topics.expired()),
                        Set.of(),
                        Map.of(),
                        Set.of(
                                config.compensator().repartitionTopic(),
                                config.compensator().changelog()));
        };
    }

    public String command() {
        return name.command();
    }

    /** Every topic it reads or writes: what the runtime creates for it when missing. */
    public Set<String> topics() {
        return union(reads, writes);
    }

    private static Set<String> union(Set<String> reads, Set<String> writes) {
        Set<String> all = new LinkedHashSet<>(reads);
        all.addAll(writes);
        return Collections.unmodifiableSet(all);
    }
}
