package io.lapse.operations.dlq;

import io.lapse.operations.cli.Connections;
import io.lapse.operations.cli.Progress;
import io.lapse.operations.kafka.OffsetRange;
import io.lapse.operations.kafka.TopicScan;
import io.lapse.operations.kafka.Topics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * The dead-letter topic at a glance: how many records it holds, how many arrived lately, and the newest one's reason.
 *
 * @param size         records in the topic (less any the broker deleted for retention)
 * @param recent       records written since the start of the recent window
 * @param newestAt     when the newest dead letter was written; null when there is none
 * @param newestReason its reason
 */
public record DeadLetterSummary(long size, long recent, Long newestAt, String newestReason) {

    public static DeadLetterSummary of(Connections connections, long recentSince) {
        String topic = connections.config().topics().dlq();
        OptionalInt partitions = Topics.partitionCount(connections, topic);
        if (partitions.isEmpty()) {
            return new DeadLetterSummary(0, 0, null, null);
        }
        List<TopicPartition> all = IntStream.range(0, partitions.getAsInt())
                .mapToObj(p -> new TopicPartition(topic, p))
                .toList();
        try (KafkaConsumer<byte[], byte[]> reader = connections.reader()) {
            Map<TopicPartition, Long> begins = reader.beginningOffsets(all);
            Map<TopicPartition, Long> ends = reader.endOffsets(all);
            Map<TopicPartition, OffsetAndTimestamp> recentStarts = reader.offsetsForTimes(
                    all.stream().collect(Collectors.toMap(Function.identity(), tp -> recentSince)));
            long size =
                    all.stream().mapToLong(tp -> ends.get(tp) - begins.get(tp)).sum();
            long recent = all.stream()
                    .filter(tp -> recentStarts.get(tp) != null)
                    .mapToLong(tp -> ends.get(tp) - recentStarts.get(tp).offset())
                    .sum();
            List<OffsetRange> lastOfEach = new ArrayList<>();
            all.stream()
                    .filter(tp -> ends.get(tp) > begins.get(tp))
                    .forEach(tp -> lastOfEach.add(new OffsetRange(tp, ends.get(tp) - 1, ends.get(tp))));
            List<DeadLetterRecord> newest = new ArrayList<>();
            TopicScan.read(
                    reader,
                    lastOfEach,
                    record -> newest.add(DeadLetterRecord.of(record)),
                    Progress.NONE,
                    connections.timeout());
            return newest.stream()
                    .max(Comparator.comparingLong(DeadLetterRecord::timestamp))
                    .map(n -> new DeadLetterSummary(size, recent, n.timestamp(), n.reason()))
                    .orElse(new DeadLetterSummary(size, recent, null, null));
        }
    }
}
