package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.store.watermarks.WatermarkReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PartitionProgressTest {

    private static final TopicPartition P0 = new TopicPartition("push", 0);
    private static final TopicPartition P1 = new TopicPartition("push", 1);

    private final PartitionProgress progress = new PartitionProgress(Duration.ofMillis(100), Duration.ofSeconds(3));

    private static CaughtUpProof brokerSaid(long askedAt, Map<TopicPartition, Long> endOffsets) {
        return new CaughtUpProof(askedAt, endOffsets, Map.of("push", 2));
    }

    private Map<String, Long> marks(Map<TopicPartition, Long> positions, CaughtUpProof proof, long madeAt) {
        WatermarkReport report = progress.report(
                List.of(P0, P1),
                p -> positions.containsKey(p) ? OptionalLong.of(positions.get(p)) : OptionalLong.empty(),
                proof,
                madeAt);
        return report.marks();
    }

    @Test
    void aLaggingPartitionReportsTheNewestRecordTimeItHasRead() {
        progress.consumed(P0, 1_000, 5_000);
        progress.consumed(P0, 900, 5_000);

        assertThat(marks(Map.of(P0, 2L), brokerSaid(4_000, Map.of(P0, 10L)), 5_000))
                .containsExactly(Map.entry("push/0", 1_000L));
    }

    @Test
    void aPartitionReadUpToItsEndOffsetIsCaughtUpAsOfWhenTheBrokerWasAsked() {
        assertThat(marks(Map.of(P0, 10L, P1, 3L), brokerSaid(4_000, Map.of(P0, 10L, P1, 4L)), 9_000))
                .as("not the time of the report: the broker's answer may be old")
                .containsExactly(Map.entry("push/0", 4_000L));
    }

    @Test
    void withoutAnAnswerFromTheBrokerNoIdlePartitionIsCaughtUp() {
        assertThat(marks(Map.of(P0, 10L, P1, 0L), null, 9_000)).isEmpty();
    }

    @Test
    void aPartitionWhosePositionIsUnknownIsNotCaughtUp() {
        assertThat(marks(Map.of(), brokerSaid(4_000, Map.of(P0, 0L)), 9_000)).isEmpty();
    }

    @Test
    void aWatermarkNeverMovesBackwards() {
        marks(Map.of(P0, 10L), brokerSaid(5_000, Map.of(P0, 10L)), 5_000);
        progress.consumed(P0, 4_950, 6_000);

        assertThat(marks(Map.of(P0, 11L), brokerSaid(5_500, Map.of(P0, 12L)), 6_000))
                .containsEntry("push/0", 5_000L);
    }

    @Test
    void aRecordTimestampFromTheFutureCountsOnlyUpToWhenItWasRead() {
        progress.consumed(P0, 99_000, 6_000);

        assertThat(marks(Map.of(P0, 1L), null, 6_000)).containsEntry("push/0", 6_000L);
    }

    @Test
    void oneRecordStampedAheadOfABacklogMovesTheMarkBySlackAtMostAndIsCounted() {
        long now = 100_000;
        progress.consumed(P0, now - 9_000, now);
        progress.consumed(P0, now - 8_990, now);

        PartitionProgress.Reading ahead = progress.consumed(P0, now + 60_000, now);

        assertThat(ahead.aheadBy()).isEqualTo(60_000);
        assertThat(marks(Map.of(P0, 3L), brokerSaid(now, Map.of(P0, 500L)), now))
                .as("the backlog behind it is unread: its orders must not fire")
                .containsExactly(Map.entry("push/0", now - 8_990 + 100));
    }

    @Test
    void aBacklogReadInOrderMovesTheMarkAsItsRecordsDo() {
        long now = 100_000;
        for (long ts = now - 9_000; ts <= now - 5_000; ts += 50) {
            assertThat(progress.consumed(P0, ts, now).aheadBy()).isZero();
        }

        assertThat(marks(Map.of(P0, 81L), brokerSaid(now, Map.of(P0, 500L)), now))
                .containsExactly(Map.entry("push/0", now - 5_000));
    }

    @Test
    void aSparsePartitionCaughtUpGoesByTheBrokersProofNotItsRecordsGaps() {
        progress.consumed(P0, 1_000, 1_000);
        progress.consumed(P0, 5_000, 5_000);

        assertThat(marks(Map.of(P0, 2L), brokerSaid(5_000, Map.of(P0, 2L)), 5_100))
                .containsExactly(Map.entry("push/0", 5_000L));
    }

    @Test
    void aRecordWithoutTimestampTellsNothingOfTime() {
        progress.consumed(P0, -1, 6_000);

        assertThat(marks(Map.of(P0, 1L), null, 6_000)).isEmpty();
    }

    @Test
    void aRecordThatArrivesFurtherBehindTheMarkThanTheSlackIsLate() {
        assertThat(progress.consumed(P0, 5_000, 6_000).late()).isFalse();
        assertThat(progress.consumed(P0, 4_950, 6_000).late())
                .as("within the slack")
                .isFalse();
        marks(Map.of(P0, 10L), brokerSaid(8_000, Map.of(P0, 10L)), 8_000);

        assertThat(progress.consumed(P0, 7_800, 9_000).late())
                .as("a producer held it since before the broker was asked")
                .isTrue();
    }

    @Test
    void aRecordTellsHowFarBehindItsPartitionsMarkItArrivedWhatTheSlackMustCover() {
        assertThat(progress.consumed(P0, 5_000, 6_000).behindBy())
                .as("the first record of a partition has no mark to be behind")
                .isZero();
        assertThat(progress.consumed(P0, 5_010, 6_000).behindBy()).isZero();
        marks(Map.of(P0, 10L), brokerSaid(8_000, Map.of(P0, 10L)), 8_000);

        assertThat(progress.consumed(P0, 7_970, 8_010).behindBy())
                .as("appended after the broker's answer although stamped before the question")
                .isEqualTo(30);
    }

    @Test
    void onceARecordArrivedLateEveryMarkIsHeldBackByHowLateItWasForAWhile() {
        progress.consumed(P1, 7_000, 7_000);
        progress.consumed(P0, 8_000, 8_000);
        progress.consumed(P0, 7_400, 8_100);

        assertThat(marks(Map.of(), null, 8_100))
                .as("500 ms later than the slack allows")
                .containsEntry("push/0", 7_500L)
                .containsEntry("push/1", 6_500L);
        assertThat(marks(Map.of(), null, 8_100 + LatenessAllowance.MEMORY_MS + 1))
                .containsEntry("push/0", 8_000L)
                .containsEntry("push/1", 7_000L);
    }

    @Test
    void aRecordHeldBackLongerThanTheTtlHoldsMarksBackByTheTtlOnly() {
        progress.consumed(P0, 60_000, 60_000);
        progress.consumed(P0, 1_000, 60_000);

        assertThat(marks(Map.of(), null, 60_000)).containsEntry("push/0", 57_000L);
    }

    @Test
    void aRevokedPartitionIsForgotten() {
        progress.consumed(P0, 1_000, 5_000);
        progress.forget(List.of(P0));

        assertThat(marks(Map.of(P0, 4L), brokerSaid(4_000, Map.of(P0, 10L)), 6_000))
                .isEmpty();
    }

    @Test
    void theReportCarriesThePartitionCountsAndWhenTheBrokerGaveThem() {
        WatermarkReport report =
                progress.report(List.of(P0), p -> OptionalLong.of(0), brokerSaid(4_000, Map.of(P0, 0L)), 6_000);

        assertThat(report.partitions()).containsExactly(Map.entry("push", 2));
        assertThat(report.countedAt()).isEqualTo(4_000);
        assertThat(report.madeAt()).isEqualTo(6_000);
    }
}
