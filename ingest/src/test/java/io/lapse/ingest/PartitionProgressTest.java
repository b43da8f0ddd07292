package io.lapse.ingest;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionProgressTest {

    private static final TopicPartition P0 = new TopicPartition("push", 0);
    private static final TopicPartition P1 = new TopicPartition("push", 1);

    private final PartitionProgress progress = new PartitionProgress();

    private static OptionalLong lag(TopicPartition p, Map<TopicPartition, Long> lags) {
        return lags.containsKey(p) ? OptionalLong.of(lags.get(p)) : OptionalLong.empty();
    }

    @Test
    void aLaggingPartitionReportsTheNewestRecordTimeItHasRead() {
        progress.consumed(P0, 1_000, 5_000);
        progress.consumed(P0, 900, 5_000);

        assertThat(progress.watermarks(List.of(P0), p -> OptionalLong.of(10), 5_000)).containsEntry("push/0", 1_000L);
    }

    @Test
    void aFullyReadPartitionReportsThePollTimeEvenWhenIdle() {
        assertThat(progress.watermarks(List.of(P0, P1), p -> lag(p, Map.of(P0, 0L)), 5_000))
                .as("P1's lag is not known yet, so it is not reported").containsExactly(Map.entry("push/0", 5_000L));
    }

    @Test
    void aWatermarkNeverMovesBackwards() {
        progress.watermarks(List.of(P0), p -> OptionalLong.of(0), 5_000);
        progress.consumed(P0, 4_000, 6_000);

        assertThat(progress.watermarks(List.of(P0), p -> OptionalLong.of(3), 6_000)).containsEntry("push/0", 5_000L);
    }

    @Test
    void aRecordTimestampFromTheFutureCountsOnlyUpToWhenItWasRead() {
        progress.consumed(P0, 99_000, 6_000);

        assertThat(progress.watermarks(List.of(P0), p -> OptionalLong.of(1), 6_000)).containsEntry("push/0", 6_000L);
    }

    @Test
    void aRevokedPartitionIsForgotten() {
        progress.consumed(P0, 1_000, 5_000);
        progress.forget(List.of(P0));

        assertThat(progress.watermarks(List.of(P0), p -> OptionalLong.of(4), 6_000)).isEmpty();
    }
}
