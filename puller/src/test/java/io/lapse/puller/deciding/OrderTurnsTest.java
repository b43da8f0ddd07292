package io.lapse.puller.deciding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class OrderTurnsTest {

    /** Runs a turn after a wait at once, on the thread that ended the wait. */
    private final OrderTurns<Void> turns = new OrderTurns<>(Runnable::run);

    private final List<String> taken = new ArrayList<>();

    private OrderTurns.Turn<Void> answer(String name, CompletableFuture<Void> answered) {
        return waited -> {
            taken.add(name + (waited ? " after waiting" : ""));
            return answered;
        };
    }

    @Test
    void anExpiryOfAnOrderBeingAnsweredWaitsForThatAnswerThenTakesItsTurn() {
        CompletableFuture<Void> firstAnswered = new CompletableFuture<>();
        CompletableFuture<Void> first = turns.inTurn("o1", answer("attempt 1", firstAnswered));
        CompletableFuture<Void> second =
                turns.inTurn("o1", answer("attempt 2", CompletableFuture.completedFuture(null)));

        assertThat(taken).containsExactly("attempt 1");
        assertThat(second).isNotDone();

        firstAnswered.complete(null);

        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
        assertThat(taken).containsExactly("attempt 1", "attempt 2 after waiting");
        assertThat(turns.orders()).isZero();
    }

    @Test
    void otherOrdersDoNotWait() {
        turns.inTurn("o1", answer("o1", new CompletableFuture<>()));
        turns.inTurn("o2", answer("o2", CompletableFuture.completedFuture(null)));

        assertThat(taken).containsExactly("o1", "o2");
        assertThat(turns.orders()).isEqualTo(1);
    }

    @Test
    void theNextInLineTakesItsTurnEvenWhenTheAnswerBeforeItFailed() {
        CompletableFuture<Void> firstAnswered = new CompletableFuture<>();
        CompletableFuture<Void> first = turns.inTurn("o1", answer("attempt 1", firstAnswered));
        CompletableFuture<Void> second =
                turns.inTurn("o1", answer("attempt 2", CompletableFuture.completedFuture(null)));

        firstAnswered.completeExceptionally(new IllegalStateException("puller closing"));

        assertThat(first).isCompletedExceptionally();
        assertThat(second).isCompleted();
        assertThat(taken).containsExactly("attempt 1", "attempt 2 after waiting");
    }

    @Test
    void aTurnThatThrowsFailsItsAnswerAndLetsTheNextGo() {
        CompletableFuture<Void> first = turns.inTurn("o1", waited -> {
            throw new IllegalStateException("broken");
        });
        CompletableFuture<Void> second =
                turns.inTurn("o1", answer("attempt 2", CompletableFuture.completedFuture(null)));

        assertThat(first).isCompletedExceptionally();
        assertThat(second).isCompleted();
        assertThat(taken).containsExactly("attempt 2");
        assertThat(turns.orders()).isZero();
    }
}
