package io.lapse.puller.deciding;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.event.TimerExpired;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AnswerOnceTest {

    private static final TimerExpired EXPIRY =
            new TimerExpired("o1", 1_000, 0, 3, 1_010, TimerExpired.Source.TIMER, true);
    private static final String ORIGINAL = "charging.timer.expired/1@14";

    private final AtomicInteger duplicates = new AtomicInteger();
    private final AnswerOnce<Void> once = new AnswerOnce<>(100, duplicates::incrementAndGet, null);
    private final AtomicInteger answers = new AtomicInteger();

    private CompletableFuture<Void> answer(String copyOf) {
        return once.answer(EXPIRY, copyOf, 0, () -> {
            answers.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        });
    }

    @Test
    void aPlainDuplicateOfAnAnsweredExpiryIsNotAnsweredAgain() {
        answer(null).join();
        answer(null).join();

        assertThat(answers).hasValue(1);
        assertThat(duplicates).hasValue(1);
    }

    @Test
    void aCopyOfAnAnsweredExpiryIsAnsweredAgainOnce() {
        answer(null).join();

        answer(ORIGINAL).join();
        answer(ORIGINAL).join();

        assertThat(answers).as("the original, then its copies once").hasValue(2);
        assertThat(duplicates).hasValue(1);
    }

    @Test
    void copiesOfDifferentOriginalsAreEachAnswered() {
        answer(ORIGINAL).join();
        answer("charging.timer.expired/1@21").join();

        assertThat(answers).hasValue(2);
    }

    @Test
    void aCopyReadWhileTheSameCopyIsInFlightSharesItsAnswer() {
        CompletableFuture<Void> upstream = new CompletableFuture<>();
        CompletableFuture<Void> first = once.answer(EXPIRY, ORIGINAL, 0, () -> {
            answers.incrementAndGet();
            return upstream;
        });
        CompletableFuture<Void> second = answer(ORIGINAL);

        assertThat(second).isNotDone();
        upstream.complete(null);

        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
        assertThat(answers).hasValue(1);
    }

    @Test
    void aFailedAnswerIsNotRememberedSoTheNextReadingAnswersIt() {
        once.answer(EXPIRY, ORIGINAL, 0, () -> {
            answers.incrementAndGet();
            return CompletableFuture.failedFuture(new IllegalStateException("puller closing"));
        });

        answer(ORIGINAL).join();

        assertThat(answers).hasValue(2);
    }

    @Test
    void anExpiryBackFromWaitingParkedIsAnsweredAgainOncePerVisit() {
        answer(null).join();

        once.answer(EXPIRY, null, 1, () -> {
                    answers.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                })
                .join();
        once.answer(EXPIRY, null, 1, () -> {
                    answers.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                })
                .join();

        assertThat(answers).as("the first visit, then the second once").hasValue(2);
        assertThat(duplicates).hasValue(1);
    }
}
