package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.store.watermarks.Watermarks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class IngestStandInTest {

    private static final long NOW = 1_800_000_000_000L;

    /** Counts the proofs asked for, and gives each the answer it was told to. */
    private static final class CountedReading implements IngestStandIn.Reading {

        final List<Long> askedAt = new ArrayList<>();
        Exception failure;
        boolean closed;

        @Override
        public Optional<UnreadRecords.Proof> prove(long now) throws Exception {
            askedAt.add(now);
            if (failure != null) {
                throw failure;
            }
            return Optional.of(new UnreadRecords.Proof(now - 20, Map.of(), 0));
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final CountedReading reading = new CountedReading();
    private final IngestStandIn standIn = new IngestStandIn(reading);

    private static OptionalLong reportedAt(long at) {
        return OptionalLong.of(at);
    }

    @Test
    void anIngestThatReportedWithinHalfASecondIsAtWorkAndNothingIsRead() {
        assertThat(standIn.proofIfAway(NOW, reportedAt(NOW - Watermarks.READER_AWAY_MS + 1)))
                .isEmpty();
        assertThat(reading.askedAt).isEmpty();
    }

    @Test
    void anIngestSilentForHalfASecondIsAwayAndTheTimerReadsForIt() {
        assertThat(standIn.proofIfAway(NOW, reportedAt(NOW - Watermarks.READER_AWAY_MS)))
                .hasValueSatisfying(proof -> assertThat(proof.firesUpTo()).isEqualTo(NOW - 20));
    }

    @Test
    void aPartitionNeverReportedCountsAsAway() {
        assertThat(standIn.proofIfAway(NOW, OptionalLong.empty())).isPresent();
    }

    @Test
    void whileIngestStaysAwayProofsComeEveryFifthOfASecond() {
        OptionalLong away = reportedAt(NOW - 3_000);

        standIn.proofIfAway(NOW, away);
        standIn.proofIfAway(NOW + 199, away);
        standIn.proofIfAway(NOW + 200, away);

        assertThat(reading.askedAt).containsExactly(NOW, NOW + 200);
    }

    @Test
    void anIngestAwayForMoreThanTenSecondsIsReadForOnceASecond() {
        OptionalLong longAgo = reportedAt(NOW - 10_000);

        standIn.proofIfAway(NOW, longAgo);
        standIn.proofIfAway(NOW + 200, longAgo);
        standIn.proofIfAway(NOW + 1_000, longAgo);

        assertThat(reading.askedAt).containsExactly(NOW, NOW + 1_000);
    }

    @Test
    void aProofThatCannotBeReadIsAskedForAgainASecondLaterNotAtEveryRound() {
        OptionalLong longAgo = reportedAt(NOW - 10_000);
        reading.failure = new IllegalStateException("the broker is not answering");

        assertThat(standIn.proofIfAway(NOW, longAgo)).isEmpty();
        standIn.proofIfAway(NOW + 999, longAgo);
        reading.failure = null;

        assertThat(standIn.proofIfAway(NOW + 1_000, longAgo)).isPresent();
        assertThat(reading.askedAt).containsExactly(NOW, NOW + 1_000);
    }

    @Test
    void closingItClosesWhatReads() {
        standIn.close();

        assertThat(reading.closed).isTrue();
    }
}
