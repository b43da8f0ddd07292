package io.lapse.puller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.resilience4j.bulkhead.ThreadPoolBulkhead;
import io.github.resilience4j.bulkhead.ThreadPoolBulkheadConfig;
import io.lapse.event.TimerExpired;
import io.lapse.time.SettableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One pull thread, kept busy while the pulls to order arrive, then let go. */
class PullQueueTest {

    private final ThreadPoolBulkhead oneThread = ThreadPoolBulkhead.of(
            "pull-queue-test",
            ThreadPoolBulkheadConfig.custom()
                    .coreThreadPoolSize(1)
                    .maxThreadPoolSize(1)
                    .queueCapacity(20)
                    .build());
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final SettableClock clock = SettableClock.at(1_000_000);
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<String> pulledInTurn = new ArrayList<>();
    private final List<CompletableFuture<PullOutcome>> pulls = new ArrayList<>();
    private final CountDownLatch busy = new CountDownLatch(1);
    private final CountDownLatch letGo = new CountDownLatch(1);

    @AfterEach
    void stopThreads() throws Exception {
        running.set(false);
        letGo.countDown();
        oneThread.close();
    }

    private static TimerExpired expiry(String orderId, long lastSeen, long deadline) {
        return new TimerExpired(orderId, deadline, lastSeen, 1, deadline + 5, TimerExpired.Source.TIMER, false);
    }

    private void keepTheThreadBusy(PullQueue queue) throws InterruptedException {
        pulls.add(queue.submit(expiry("busy", 0, 1), () -> {
            busy.countDown();
            letGo.await();
            return PullOutcome.notFound();
        }));
        assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
    }

    private void submit(PullQueue queue, TimerExpired expiry) {
        pulls.add(queue.submit(expiry, () -> {
            synchronized (pulledInTurn) {
                pulledInTurn.add(expiry.orderId());
            }
            return PullOutcome.notFound();
        }));
    }

    /** A pull that takes this long by the queue's clock. */
    private void submitTaking(PullQueue queue, TimerExpired expiry, Duration taking) {
        pulls.add(queue.submit(expiry, () -> {
            synchronized (pulledInTurn) {
                pulledInTurn.add(expiry.orderId());
            }
            clock.advance(taking);
            return PullOutcome.notFound();
        }));
    }

    private List<String> pulledOnceLetGo() {
        letGo.countDown();
        CompletableFuture.allOf(pulls.toArray(CompletableFuture[]::new)).join();
        synchronized (pulledInTurn) {
            return List.copyOf(pulledInTurn);
        }
    }

    @Test
    void waitingPullsGoEarliestSilenceFirstThenEarliestDeadlineWhateverTheOrderTheyCameIn() throws Exception {
        PullQueue queue = new PullQueue(oneThread, PATIENCE, clock, running::get);
        keepTheThreadBusy(queue);

        submit(queue, expiry("silent-since-30", 30, 120));
        submit(queue, expiry("silent-since-10-attempt-2", 10, 200));
        submit(queue, expiry("silent-since-20", 20, 110));
        submit(queue, expiry("silent-since-10-attempt-1", 10, 100));

        assertThat(pulledOnceLetGo())
                .containsExactly(
                        "silent-since-10-attempt-1", "silent-since-10-attempt-2", "silent-since-20", "silent-since-30");
    }

    @Test
    void aPullOvertakenByEarlierSilencesGoesNextOnceItHasWaitedItsPatience() throws Exception {
        PullQueue queue = new PullQueue(oneThread, PATIENCE, clock, running::get);
        keepTheThreadBusy(queue);

        submit(queue, expiry("young", 100, 200));
        submitTaking(queue, expiry("old-1", 10, 110), PATIENCE);
        submit(queue, expiry("old-2", 20, 120));
        submit(queue, expiry("old-3", 30, 130));

        assertThat(pulledOnceLetGo()).containsExactly("old-1", "young", "old-2", "old-3");
    }

    @Test
    void withinItsPatienceAPullLetsAnyNumberOfEarlierSilencesGoFirst() throws Exception {
        PullQueue queue = new PullQueue(oneThread, PATIENCE, clock, running::get);
        keepTheThreadBusy(queue);

        submit(queue, expiry("young", 1_000, 2_000));
        for (int i = 0; i < 20; i++) {
            submit(queue, expiry("old-" + i, i, 100 + i));
        }

        assertThat(pulledOnceLetGo()).hasSize(21).endsWith("young");
    }

    @Test
    void aPullThatThrowsFailsItsOwnOutcomeOnly() throws Exception {
        PullQueue queue = new PullQueue(oneThread, PATIENCE, clock, running::get);

        CompletableFuture<PullOutcome> broken = queue.submit(expiry("broken", 1, 2), () -> {
            throw new IllegalStateException("no answer");
        });
        CompletableFuture<PullOutcome> fine = queue.submit(expiry("fine", 2, 3), PullOutcome::notFound);

        assertThat(fine.get(10, TimeUnit.SECONDS)).isEqualTo(PullOutcome.notFound());
        assertThat(broken).failsWithin(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.waiting() == 0);
    }
}
