package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ShardOwnershipTest {

    @Test
    void partitionsBeyondTimerShardsAreNoShardOfThisInstance() {
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
        try (ShardOwnership ownership = new ShardOwnership(consumer, "shards", 16, () -> {})) {
            // a timer started with timer.shards=32 grew the topic, and the group hands this one some of the new ones
            consumer.rebalance(IntStream.of(3, 15, 16, 31)
                    .mapToObj(p -> new TopicPartition("shards", p))
                    .toList());

            assertThat(ownership.owned()).containsExactlyInAnyOrder(3, 15);

            consumer.rebalance(List.of(new TopicPartition("shards", 15)));
            assertThat(ownership.owned()).containsExactly(15);
        }
    }
}
