package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A refusal is upstream-wide when, within the window before it or the window after it, upstream refused most of the
 * other orders it answered there alike, two at least; about its order when upstream answered two other orders at least
 * on each side; else the evidence is thin, and the order is asked once more before its refusal is about it.
 */
class RefusalsTest {

    private static final PullOutcome UNPROCESSABLE =
            PullOutcome.refused("answered 422", "upstream refused the pull: answered 422");
    private static final PullOutcome GONE =
            PullOutcome.refused("answered 410", "upstream refused the pull: answered 410");
    private static final PullOutcome GARBAGE =
            PullOutcome.refused("answered 200 with an invalid status", "upstream answered 200 with an invalid status");
    /** As far apart as the puller's pulls at a quiet time. */
    private static final Duration QUIET = Duration.ofMillis(1_500);

    private static final Duration BUSY = Duration.ofMillis(10);
    /** How long a pull waits, parked, before it is asked again: {@code upstream.circuit-open}, by default. */
    private static final Duration CIRCUIT_OPEN = Duration.ofSeconds(2);
    /** {@code upstream.refusal-patience}, by default. */
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final AtomicLong nanos = new AtomicLong();
    private final List<Runnable> judgments = new ArrayList<>();
    private final List<String> upstreamWide = new ArrayList<>();
    private final Refusals refusals = new Refusals(nanos::get, PATIENCE, judgments::add, upstreamWide::add);

    /** The window after the refusals passes, with whatever was answered meanwhile: now they are judged. */
    private void windowPasses() {
        judgments.forEach(Runnable::run);
        judgments.clear();
    }

    private List<CompletableFuture<PullOutcome>> refuse(int orders, String prefix, PullOutcome how, Duration apart) {
        List<CompletableFuture<PullOutcome>> verdicts = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            verdicts.add(refusals.judge(prefix + i, how));
            nanos.addAndGet(apart.toNanos());
        }
        return verdicts;
    }

    private void answer(int orders, String prefix, Duration apart) {
        for (int i = 0; i < orders; i++) {
            refusals.answered(prefix + i);
            nanos.addAndGet(apart.toNanos());
        }
    }

    private static void allAre(List<CompletableFuture<PullOutcome>> verdicts, PullOutcome.Kind kind) {
        assertThat(verdicts)
                .allSatisfy(verdict -> assertThat(verdict.join().kind()).isEqualTo(kind));
    }

    @Test
    void aRefusalAmongOrdersUpstreamAnswersIsAboutItsOrderAndFailed() {
        answer(30, "ok-", BUSY);
        CompletableFuture<PullOutcome> verdict = refusals.judge("bad", GARBAGE);
        answer(30, "later-", BUSY);
        windowPasses();

        assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.FAILED);
        assertThat(verdict.join().error()).isEqualTo("upstream answered 200 with an invalid status");
        assertThat(upstreamWide).isEmpty();
    }

    @Test
    void theSameRefusalForMostOrdersWithinTheWindowIsUpstreamWideAndEveryOneOfThemWaits() {
        List<CompletableFuture<PullOutcome>> verdicts = refuse(12, "o-", UNPROCESSABLE, BUSY);
        answer(5, "ok-", BUSY);
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.UNANSWERED);
        assertThat(verdicts.get(0).join().error())
                .isEqualTo("upstream answered 422 for 11 of the 16 other orders it answered in the 5 s from its refusal"
                        + " of order o-0: a refusal of every order, not of one");
        assertThat(upstreamWide).hasSize(12);
    }

    @Test
    void garbageForEveryOrderAtAQuietTimeIsUpstreamWideFromItsFirstOrderToItsLast() {
        // upstream answered before the garbage began and answers again after it ended
        answer(4, "before-", QUIET);
        List<CompletableFuture<PullOutcome>> verdicts = refuse(6, "o-", GARBAGE, QUIET);
        answer(4, "after-", QUIET);
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.UNANSWERED);
        assertThat(verdicts.get(0).join().error()).contains("in the 5 s from its refusal of order o-0");
        assertThat(verdicts.get(5).join().error()).contains("in the 5 s up to its refusal of order o-5");
    }

    @Test
    void twoOrdersRefusedAlikeAtAQuietTimeAreAskedAgainThenEachAboutTheirOrder() {
        List<CompletableFuture<PullOutcome>> verdicts =
                refuse(Refusals.FEWEST_OTHERS_ALIKE, "o-", UNPROCESSABLE, QUIET);
        windowPasses();
        allAre(verdicts, PullOutcome.Kind.UNANSWERED);

        nanos.addAndGet(PATIENCE.toNanos());
        List<CompletableFuture<PullOutcome>> again = refuse(Refusals.FEWEST_OTHERS_ALIKE, "o-", UNPROCESSABLE, QUIET);
        windowPasses();

        allAre(again, PullOutcome.Kind.FAILED);
        assertThat(upstreamWide).isEmpty();
    }

    @Test
    void oneOrderRefusedWithNoOtherOrderAskedIsAskedAgainForTheThinPatienceThenFailed() {
        CompletableFuture<PullOutcome> first = refusals.judge("alone", GARBAGE);
        windowPasses();

        assertThat(first.join().kind()).isEqualTo(PullOutcome.Kind.UNANSWERED);
        assertThat(first.join().error())
                .isEqualTo("upstream answered 200 with an invalid status for order alone, and answered 0 other orders"
                        + " in the 5 s up to it and 0 from it: too little evidence that it refuses this order alone"
                        + " (refused so for 0 of the 20 s of upstream.refusal-patience), asked again after"
                        + " upstream.circuit-open");
        assertThat(upstreamWide).as("one order's refusal opens no circuit").isEmpty();

        // asked again after each judgment and a parked wait, until it has been refused so for 20 s
        List<PullOutcome.Kind> verdicts = new ArrayList<>();
        do {
            nanos.addAndGet(Refusals.WINDOW.plus(CIRCUIT_OPEN).toNanos());
            CompletableFuture<PullOutcome> again = refusals.judge("alone", GARBAGE);
            windowPasses();
            verdicts.add(again.join().kind());
        } while (verdicts.get(verdicts.size() - 1) == PullOutcome.Kind.UNANSWERED);

        assertThat(verdicts)
                .as("the requests after the first (4 in all)")
                .containsExactly(PullOutcome.Kind.UNANSWERED, PullOutcome.Kind.UNANSWERED, PullOutcome.Kind.FAILED);
        assertThat(upstreamWide).isEmpty();
    }

    @Test
    void anAnswerBetweenRefusalsOnThinEvidenceStartsThePatienceAfresh() {
        refusals.judge("flaky", GARBAGE);
        windowPasses();
        nanos.addAndGet(Refusals.WINDOW.plus(CIRCUIT_OPEN).toNanos());
        refusals.answered("flaky");
        nanos.addAndGet(PATIENCE.toNanos());

        CompletableFuture<PullOutcome> later = refusals.judge("flaky", GARBAGE);
        windowPasses();

        assertThat(later.join().kind()).isEqualTo(PullOutcome.Kind.UNANSWERED);
    }

    @Test
    void garbageBeginningAtAQuietTimeWithOneOtherOrderRefusedAfterItWaits() {
        // the chaos run's dead letter: upstream answered before the window, then one other order in it was refused
        answer(4, "before-", QUIET);
        CompletableFuture<PullOutcome> verdict = refusals.judge("first", GARBAGE);
        nanos.addAndGet(QUIET.toNanos());
        refuse(1, "other-", GARBAGE, QUIET);
        windowPasses();

        assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.UNANSWERED);
    }

    @Test
    void garbageEndingAtAQuietTimeWithOneOtherOrderRefusedBeforeItWaits() {
        refuse(1, "other-", GARBAGE, QUIET);
        CompletableFuture<PullOutcome> verdict = refusals.judge("last", GARBAGE);
        nanos.addAndGet(QUIET.toNanos());
        answer(4, "after-", QUIET);
        windowPasses();

        assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.UNANSWERED);
    }

    @Test
    void anOrderAskedAgainAndRefusedAmongAnswersIsFailedAtOnce() {
        refusals.judge("bad", GARBAGE);
        windowPasses();
        nanos.addAndGet(Refusals.WINDOW.plus(CIRCUIT_OPEN).toNanos());

        answer(3, "ok-", QUIET);
        CompletableFuture<PullOutcome> again = refusals.judge("bad", GARBAGE);
        answer(3, "later-", QUIET);
        windowPasses();

        assertThat(again.join().kind()).isEqualTo(PullOutcome.Kind.FAILED);
    }

    @Test
    void aRefusalOnThinEvidenceLongForgottenLetsTheOrderBeAskedAgain() {
        refusals.judge("rare", UNPROCESSABLE);
        windowPasses();
        nanos.addAndGet(Refusals.THIN_MEMORY.toNanos() + 1);

        CompletableFuture<PullOutcome> later = refusals.judge("rare", UNPROCESSABLE);
        windowPasses();

        assertThat(later.join().kind()).isEqualTo(PullOutcome.Kind.UNANSWERED);
    }

    @Test
    void refusalsAlikeAmongAsManyOrdersAnsweredAreEachAboutTheirOrder() {
        answer(2, "first-", BUSY);
        List<CompletableFuture<PullOutcome>> verdicts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            verdicts.add(refusals.judge("o-" + i, UNPROCESSABLE));
            nanos.addAndGet(BUSY.toNanos());
            refusals.answered("ok-" + i);
            nanos.addAndGet(BUSY.toNanos());
        }
        answer(2, "last-", BUSY);
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.FAILED);
    }

    @Test
    void onlyTheSameRefusalCounts() {
        answer(2, "before-", BUSY);
        List<CompletableFuture<PullOutcome>> verdicts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            refuse(2, "gone-" + i + "-", GONE, BUSY);
            verdicts.addAll(refuse(1, "o-" + i + "-", UNPROCESSABLE, BUSY));
        }
        answer(2, "after-", BUSY);
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.FAILED);
    }

    @Test
    void onlyRefusalsWithinTheWindowCount() {
        answer(2, "before-", BUSY);
        List<CompletableFuture<PullOutcome>> verdicts = refuse(2, "early-", UNPROCESSABLE, BUSY);
        answer(2, "between-", BUSY);
        nanos.addAndGet(Refusals.WINDOW.toNanos() + 1);
        answer(2, "between-", BUSY);
        verdicts.addAll(refuse(2, "late-", UNPROCESSABLE, BUSY));
        answer(2, "after-", BUSY);
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.FAILED);
    }
}
