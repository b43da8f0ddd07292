package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A refusal is about its order unless upstream refused most orders alike around it, ten at least. */
class RefusalsTest {

    private static final PullOutcome UNPROCESSABLE =
            PullOutcome.refused("answered 422", "upstream refused the pull: answered 422");

    private final AtomicLong nanos = new AtomicLong();
    private final List<Runnable> judgments = new ArrayList<>();
    private final List<String> upstreamWide = new ArrayList<>();
    private final Refusals refusals = new Refusals(nanos::get, judgments::add, upstreamWide::add);

    /** The window after the refusals passes, with whatever was answered meanwhile: now they are judged. */
    private void windowPasses() {
        judgments.forEach(Runnable::run);
        judgments.clear();
    }

    private List<CompletableFuture<PullOutcome>> refuse(int orders, String prefix) {
        List<CompletableFuture<PullOutcome>> verdicts = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            verdicts.add(refusals.judge(prefix + i, UNPROCESSABLE));
            nanos.addAndGet(10_000_000);
        }
        return verdicts;
    }

    @Test
    void aRefusalAmongOrdersUpstreamAnswersIsAboutItsOrderAndFailed() {
        for (int i = 0; i < 30; i++) {
            refusals.answered("ok-" + i);
        }
        CompletableFuture<PullOutcome> verdict = refusals.judge("bad", UNPROCESSABLE);
        windowPasses();

        assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.FAILED);
        assertThat(verdict.join().error()).isEqualTo("upstream refused the pull: answered 422");
        assertThat(upstreamWide).isEmpty();
    }

    @Test
    void theSameRefusalForMostOrdersWithinTheWindowIsUpstreamWideAndEveryOneOfThemWaits() {
        List<CompletableFuture<PullOutcome>> verdicts = refuse(12, "o-");
        for (int i = 0; i < 5; i++) {
            refusals.answered("ok-" + i);
        }
        windowPasses();

        assertThat(verdicts)
                .allSatisfy(verdict -> assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.UNANSWERED));
        assertThat(verdicts.get(0).join().error())
                .isEqualTo("upstream answered 422 for 12 of the 17 orders it answered within 2 s: a refusal of every"
                        + " order, not of one");
        assertThat(upstreamWide).hasSize(12);
    }

    @Test
    void fewerThanTenOrdersRefusedAlikeAreEachAboutTheirOrderAtAQuietTime() {
        List<CompletableFuture<PullOutcome>> verdicts = refuse(Refusals.MOST_ORDERS_AT_LEAST - 1, "o-");
        windowPasses();

        assertThat(verdicts)
                .allSatisfy(verdict -> assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.FAILED));
    }

    @Test
    void refusalsAlikeThatAreHalfTheOrdersAnsweredOrFewerAreEachAboutTheirOrder() {
        List<CompletableFuture<PullOutcome>> verdicts = refuse(12, "o-");
        for (int i = 0; i < 12; i++) {
            refusals.answered("ok-" + i);
        }
        windowPasses();

        assertThat(verdicts)
                .allSatisfy(verdict -> assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.FAILED));
    }

    @Test
    void onlyTheSameRefusalCounts() {
        for (int i = 0; i < 6; i++) {
            refusals.judge("gone-" + i, PullOutcome.refused("answered 410", "upstream refused the pull: answered 410"));
        }
        List<CompletableFuture<PullOutcome>> verdicts = refuse(6, "o-");
        windowPasses();

        assertThat(verdicts)
                .allSatisfy(verdict -> assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.FAILED));
    }

    @Test
    void onlyRefusalsWithinTheWindowCount() {
        List<CompletableFuture<PullOutcome>> verdicts = refuse(6, "early-");
        nanos.addAndGet(Refusals.WINDOW.toNanos() * 3);
        verdicts.addAll(refuse(6, "late-"));
        windowPasses();

        assertThat(verdicts)
                .allSatisfy(verdict -> assertThat(verdict.join().kind()).isEqualTo(PullOutcome.Kind.FAILED));
    }
}
