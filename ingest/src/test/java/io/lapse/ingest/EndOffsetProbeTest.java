package io.lapse.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.time.SettableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EndOffsetProbeTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final TopicPartition PUSH = new TopicPartition("charging.status", 0);

    private final SettableClock clock = SettableClock.at(NOW);
    private final List<Set<TopicPartition>> asked = new ArrayList<>();
    private CompletableFuture<CaughtUpProof> answer = new CompletableFuture<>();
    private final ProofSchedule schedule = new ProofSchedule();
    private final EndOffsetProbe probe = new EndOffsetProbe(
            (askedAt, partitions) -> {
                asked.add(partitions);
                return answer;
            },
            schedule,
            clock,
            millis -> {});

    @BeforeEach
    void ingestReadsOnePartitionAndADeadlineIsDue() {
        probe.watch(Set.of(PUSH));
        schedule.earliestDue(OptionalLong.of(NOW));
    }

    @Test
    void asksAboutWhatIngestReadsOneQuestionAtATimeAtMostEveryInterval() {
        probe.askIfDue();
        probe.askIfDue();
        clock.advance(ProofSchedule.QUICK);
        probe.askIfDue();
        assertThat(asked).as("the first is still open").containsExactly(Set.of(PUSH));

        answer.complete(proof(NOW));
        answer = new CompletableFuture<>();
        probe.askIfDue();

        assertThat(asked).hasSize(2);
    }

    @Test
    void theAskingThreadSleepsUntilTheNextQuestionIsDue() {
        probe.askIfDue();
        assertThat(probe.millisUntilDue()).as("looks for the answer every ms").isEqualTo(1);

        answer.complete(proof(NOW));
        clock.advance(Duration.ofMillis(2));

        assertThat(probe.millisUntilDue()).isEqualTo(ProofSchedule.QUICK.toMillis() - 2);
    }

    @Test
    void theLoopTurnsAtOnceForAnAnswerItHasNotTaken() {
        probe.askIfDue();
        answer.complete(proof(NOW));

        assertThat(probe.untilNextTurn()).isZero();
        assertThat(probe.latest().askedAt()).isEqualTo(NOW);
        clock.advance(Duration.ofMillis(2));
        assertThat(probe.untilNextTurn())
                .as("taken: until the next question")
                .isEqualTo(ProofSchedule.QUICK.minusMillis(2));
    }

    @Test
    void whileAnAnswerIsExpectedTheLoopLooksForItEveryMillisecond() {
        probe.askIfDue();
        clock.advance(Duration.ofMillis(3));

        assertThat(probe.untilNextTurn()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aBrokerThatDoesNotAnswerIsLookedForOnlyAtTheInterval() {
        probe.askIfDue();
        clock.advance(Duration.ofSeconds(1));

        assertThat(probe.untilNextTurn()).isEqualTo(ProofSchedule.QUICK);
    }

    @Test
    void atRestTheBrokerIsAskedOnceASecondAndTheLoopWaitsForRecordsATenthOfASecondAtATime() {
        schedule.earliestDue(OptionalLong.empty());
        probe.askIfDue();
        answer.complete(proof(NOW));
        probe.latest();
        answer = new CompletableFuture<>();
        clock.advance(Duration.ofMillis(500));
        probe.askIfDue();

        assertThat(asked).hasSize(1);
        assertThat(probe.millisUntilDue()).isEqualTo(500);
        assertThat(probe.untilNextTurn()).isEqualTo(EndOffsetProbe.LONGEST_TURN);
        clock.advance(Duration.ofMillis(500));
        probe.askIfDue();
        assertThat(asked).hasSize(2);
    }

    @Test
    void aDeadlineComingNearBringsTheNextQuestionForward() {
        schedule.earliestDue(OptionalLong.empty());
        probe.askIfDue();
        answer.complete(proof(NOW));
        answer = new CompletableFuture<>();
        clock.advance(Duration.ofMillis(100));

        schedule.earliestDue(OptionalLong.of(NOW + 300));

        assertThat(probe.millisUntilDue())
                .as("asked from " + ProofSchedule.LEAD + " before the deadline")
                .isZero();
        probe.askIfDue();
        assertThat(asked).hasSize(2);
    }

    @Test
    void aNewAssignmentIsAskedAboutAtOnce() {
        schedule.earliestDue(OptionalLong.empty());
        probe.askIfDue();
        answer.complete(proof(NOW));
        answer = new CompletableFuture<>();

        TopicPartition added = new TopicPartition(PUSH.topic(), 1);
        probe.watch(Set.of(PUSH, added));
        probe.askIfDue();

        assertThat(asked).last().isEqualTo(Set.of(PUSH, added));
    }

    @Test
    void aFailedQuestionKeepsTheLastAnswerAndTheNextOneIsAskedWhenDue() {
        probe.askIfDue();
        answer.complete(proof(NOW));
        answer = CompletableFuture.failedFuture(new IllegalStateException("the broker is gone"));
        clock.advance(ProofSchedule.QUICK);
        probe.askIfDue();
        clock.advance(ProofSchedule.QUICK);
        answer = new CompletableFuture<>();
        probe.askIfDue();

        assertThat(asked).hasSize(3);
        assertThat(probe.latest().askedAt()).isEqualTo(NOW);
    }

    private static CaughtUpProof proof(long askedAt) {
        return new CaughtUpProof(askedAt, Map.of(PUSH, 10L), Map.of(PUSH.topic(), 1));
    }
}
