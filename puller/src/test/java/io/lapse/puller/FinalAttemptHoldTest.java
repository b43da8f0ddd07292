package io.lapse.puller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.resilience4j.core.IntervalFunction;
import io.lapse.event.PullResult.Outcome;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.lapse.store.OrderView;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FinalAttemptHoldTest {

    private static final long LAST_SEEN = 1_000;
    private static final TimerExpired FINAL =
            new TimerExpired("o1", 91_000, LAST_SEEN, 10, 91_010, TimerExpired.Source.TIMER, true);
    private static final PullOutcome UNANSWERED = PullOutcome.unanswered("upstream answered 500 after 3 attempts");

    private final AtomicReference<OrderView> redis = new AtomicReference<>(
            new OrderView("o1", OrderView.Phase.GIVEN_UP, OptionalLong.of(LAST_SEEN), 10, OptionalLong.empty()));
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final FinalAttemptHold hold = new FinalAttemptHold(
            IntervalFunction.of(Duration.ofMillis(10)),
            orderId -> CompletableFuture.completedFuture(redis.get()),
            running::get);
    private final AtomicInteger tries = new AtomicInteger();

    @Test
    void anAnsweredPullIsNotHeld() {
        PullOutcome ok = PullOutcome.ok(new StatusPush("o1", "CHARGING", 2_000L));

        assertThat(hold.untilAnswered(FINAL, ok, this::unanswered).join()).isSameAs(ok);
        assertThat(tries).hasValue(0);
    }

    @Test
    void anUnansweredFinalPullIsTriedAgainUntilUpstreamAnswers() {
        CompletableFuture<PullOutcome> answered = hold.untilAnswered(
                FINAL,
                UNANSWERED,
                () -> tries.incrementAndGet() < 5
                        ? CompletableFuture.completedFuture(UNANSWERED)
                        : CompletableFuture.completedFuture(PullOutcome.ok(new StatusPush("o1", "CHARGING", 2_000L))));

        assertThat(answered.join().outcome()).isEqualTo(Outcome.OK);
        assertThat(tries).hasValue(5);
        assertThat(hold.held()).isZero();
    }

    @Test
    void aHeldOrderThatIsCancelledIsLetGoWithoutAnotherTry() {
        CompletableFuture<PullOutcome> answered = hold.untilAnswered(FINAL, UNANSWERED, this::unanswered);
        await().atMost(Duration.ofSeconds(5)).until(() -> tries.get() >= 2);
        assertThat(hold.held()).isOne();

        redis.set(new OrderView("o1", OrderView.Phase.ENDED, OptionalLong.empty(), 0, OptionalLong.empty()));

        assertThat(answered.join().outcome()).isEqualTo(Outcome.SKIPPED);
        int triesWhenLetGo = tries.get();
        assertThat(hold.held()).isZero();
        assertThat(tries).as("no try after the order was let go").hasValue(triesWhenLetGo);
    }

    @Test
    void aHeldPullIsAbandonedWhenThePullerCloses() {
        CompletableFuture<PullOutcome> answered = hold.untilAnswered(FINAL, UNANSWERED, this::unanswered);

        running.set(false);

        await().atMost(Duration.ofSeconds(5)).until(answered::isCompletedExceptionally);
        assertThat(hold.held()).isZero();
    }

    private CompletableFuture<PullOutcome> unanswered() {
        tries.incrementAndGet();
        return CompletableFuture.completedFuture(UNANSWERED);
    }
}
