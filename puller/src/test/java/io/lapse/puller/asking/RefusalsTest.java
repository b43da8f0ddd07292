package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A refusal is about its order unless, within the window before it or the window after it, upstream refused most of
 * the other orders it answered there alike, two at least.
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

    private final AtomicLong nanos = new AtomicLong();
    private final List<Runnable> judgments = new ArrayList<>();
    private final List<String> upstreamWide = new ArrayList<>();
    private final Refusals refusals = new Refusals(nanos::get, judgments::add, upstreamWide::add);

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
    void twoOrdersRefusedAlikeAtAQuietTimeAreEachAboutTheirOrder() {
        List<CompletableFuture<PullOutcome>> verdicts =
                refuse(Refusals.FEWEST_OTHERS_ALIKE, "o-", UNPROCESSABLE, QUIET);
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.FAILED);
        assertThat(upstreamWide).isEmpty();
    }

    @Test
    void refusalsAlikeAmongAsManyOrdersAnsweredAreEachAboutTheirOrder() {
        List<CompletableFuture<PullOutcome>> verdicts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            verdicts.add(refusals.judge("o-" + i, UNPROCESSABLE));
            nanos.addAndGet(BUSY.toNanos());
            refusals.answered("ok-" + i);
            nanos.addAndGet(BUSY.toNanos());
        }
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.FAILED);
    }

    @Test
    void onlyTheSameRefusalCounts() {
        List<CompletableFuture<PullOutcome>> verdicts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            refuse(2, "gone-" + i + "-", GONE, BUSY);
            verdicts.addAll(refuse(1, "o-" + i + "-", UNPROCESSABLE, BUSY));
        }
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.FAILED);
    }

    @Test
    void onlyRefusalsWithinTheWindowCount() {
        List<CompletableFuture<PullOutcome>> verdicts = refuse(2, "early-", UNPROCESSABLE, BUSY);
        nanos.addAndGet(Refusals.WINDOW.toNanos() + 1);
        verdicts.addAll(refuse(2, "late-", UNPROCESSABLE, BUSY));
        windowPasses();

        allAre(verdicts, PullOutcome.Kind.FAILED);
    }
}
