package io.lapse.puller.reading;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetTrackerTest {

    private static final TopicPartition P0 = new TopicPartition("expired", 0);
    private static final TopicPartition P1 = new TopicPartition("expired", 1);

    private final OffsetTracker tracker = new OffsetTracker();

    private void register(TopicPartition partition, long... offsets) {
        for (long offset : offsets) {
            tracker.register(partition, offset, 0);
        }
    }

    @Test
    void nothingIsCommittableBeforeTheFirstRecordIsDone() {
        register(P0, 10, 11, 12);

        assertThat(tracker.advanced()).isEmpty();
        assertThat(tracker.committable(List.of(P0))).isEmpty();
        assertThat(tracker.inFlight()).isEqualTo(3);
    }

    @Test
    void recordsDoneOutOfOrderCommitOnlyTheContiguousPrefix() {
        register(P0, 10, 11, 12, 13);

        tracker.done(P0, 12);
        tracker.done(P0, 10);
        assertThat(tracker.advanced()).containsExactly(Map.entry(P0, new OffsetAndMetadata(11)));

        tracker.done(P0, 11);
        assertThat(tracker.advanced()).containsExactly(Map.entry(P0, new OffsetAndMetadata(13)));
        assertThat(tracker.inFlight()).isEqualTo(1);

        tracker.done(P0, 13);
        assertThat(tracker.advanced()).containsExactly(Map.entry(P0, new OffsetAndMetadata(14)));
        assertThat(tracker.inFlight()).isZero();
    }

    @Test
    void aPartitionIsReportedOnlyWhenItsOffsetMoved() {
        register(P0, 0, 1);
        register(P1, 0);
        tracker.done(P0, 0);
        tracker.done(P1, 0);
        assertThat(tracker.advanced()).containsOnlyKeys(P0, P1);

        tracker.done(P0, 1);

        assertThat(tracker.advanced()).containsExactly(Map.entry(P0, new OffsetAndMetadata(2)));
        assertThat(tracker.advanced()).isEmpty();
    }

    @Test
    void gapsBetweenOffsetsDoNotHoldCommitsBack() {
        register(P0, 5, 9);

        tracker.done(P0, 9);
        tracker.done(P0, 5);

        assertThat(tracker.committable(List.of(P0))).containsExactly(Map.entry(P0, new OffsetAndMetadata(10)));
    }

    @Test
    void aDuplicateAcknowledgementCountsOnce() {
        register(P0, 0, 1);

        tracker.done(P0, 1);
        tracker.done(P0, 1);

        assertThat(tracker.inFlight()).isEqualTo(1);
        assertThat(tracker.committable(List.of(P0))).isEmpty();
    }

    @Test
    void committableNamesOnlyTheAskedPartitionsWithProgress() {
        register(P0, 0);
        register(P1, 0);
        tracker.done(P0, 0);

        assertThat(tracker.committable(List.of(P0, P1))).containsOnlyKeys(P0);
        assertThat(tracker.committable(List.of(P1))).isEmpty();
    }

    @Test
    void aForgottenPartitionNoLongerCountsAndIgnoresLateAcknowledgements() {
        register(P0, 0, 1, 2);
        register(P1, 0);
        tracker.done(P0, 1);

        tracker.forget(List.of(P0));
        tracker.done(P0, 0);

        assertThat(tracker.inFlight()).isEqualTo(1);
        assertThat(tracker.committable(List.of(P0))).isEmpty();
        assertThat(tracker.advanced()).isEmpty();
    }

    @Test
    void aPartitionAssignedAgainStartsAfresh() {
        register(P0, 0);
        tracker.done(P0, 0);
        tracker.advanced();
        tracker.forget(List.of(P0));

        register(P0, 1);
        tracker.done(P0, 1);

        assertThat(tracker.advanced()).containsExactly(Map.entry(P0, new OffsetAndMetadata(2)));
    }
}
