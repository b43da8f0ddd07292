package io.lapse.bench;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Records of a topic that a consumer group has not committed yet, from the broker's point of view. Ingest commits
 * only what Redis acknowledged, so a lag of 0 means every record written so far is applied.
 */
final class ConsumerLag {

    private static final long TIMEOUT_SECONDS = 10;

    private ConsumerLag() {}

    static long of(Admin admin, String group, String topic, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartition(topic, p))
                .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                admin.listOffsets(latest).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        long lag = 0;
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end : ends.entrySet()) {
            OffsetAndMetadata done = committed.get(end.getKey());
            lag += end.getValue().offset() - (done == null ? 0 : done.offset());
        }
        return lag;
    }
}
