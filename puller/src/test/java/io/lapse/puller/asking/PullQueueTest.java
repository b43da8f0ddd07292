package io.lapse.puller.asking;

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
        pulls.add(queue.submit(new Pull(expiry("busy", 0, 1), 0), () -> {
            busy.countDown();
            letGo.await();
            return PullOutcome.notFound();
        }));
        assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
    }

    private void submit(PullQueue queue, TimerExpired expiry) {
        submit(queue, expiry, 0);
    }

    /** @param asked requests upstream got for it before */
    private void submit(PullQueue queue, TimerExpired expiry, int asked) {
        pulls.add(queue.submit(new Pull(expiry, asked), () -> {
            synchronized (pulledInTurn) {
                pulledInTurn.add(expiry.orderId());
            }
            return PullOutcome.notFound();
        }));
    }

    /** A pull that takes this long by the queue's clock. */
    private void submitTaking(PullQueue queue, TimerExpired expiry, Duration taking) {
        pulls.add(queue.submit(new Pull(expiry, 0), () -> {
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
    void pullsUpstreamWasAskedForBeforeGoAfterThoseNotAskedYetWhateverTheirSilence() throws Exception {
        PullQueue queue = new PullQueue(oneThread, PATIENCE, clock, running::get);
        keepTheThreadBusy(queue);

        submit(queue, expiry("failing-since-10-asked-4", 10, 100), 4);
        submit(queue, expiry("since-30", 30, 120));
        submit(queue, expiry("failing-since-5-asked-2", 5, 100), 2);
        submit(queue, expiry("since-20", 20, 110));

        assertThat(pulledOnceLetGo())
                .containsExactly("since-20", "since-30", "failing-since-5-asked-2", "failing-since-10-asked-4");
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

        CompletableFuture<PullOutcome> broken = queue.submit(new Pull(expiry("broken", 1, 2), 0), () -> {
            throw new IllegalStateException("no answer");
        });
        CompletableFuture<PullOutcome> fine = queue.submit(new Pull(expiry("fine", 2, 3), 0), PullOutcome::notFound);

        assertThat(fine.get(10, TimeUnit.SECONDS)).isEqualTo(PullOutcome.notFound());
        assertThat(broken).failsWithin(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.waiting() == 0);
    }

    /** Asks for pulls together as {@code most} allows, noting each request in the turns as [orderIds]. */
    private final class Together implements PullQueue.Together {
        private final int most;
        private final CountDownLatch release;
        private final java.util.Set<String> unanswered;

        Together(int most, CountDownLatch release, java.util.Set<String> unanswered) {
            this.most = most;
            this.release = release;
            this.unanswered = unanswered;
        }

        @Override
        public int most() {
            return most;
        }

        @Override
        public List<PullOutcome> pull(List<Pull> expiries) {
            synchronized (pulledInTurn) {
                pulledInTurn.add(expiries.stream().map(Pull::orderId).toList().toString());
            }
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new java.util.concurrent.CancellationException("closing");
            }
            List<PullOutcome> outcomes = new ArrayList<>();
            for (Pull expiry : expiries) {
                outcomes.add(unanswered.contains(expiry.orderId()) ? null : PullOutcome.notFound());
            }
            return outcomes;
        }
    }

    private void submitTogether(PullQueue queue, TimerExpired expiry) {
        pulls.add(queue.submit(
                new Pull(expiry, 0),
                () -> {
                    synchronized (pulledInTurn) {
                        pulledInTurn.add(expiry.orderId() + " alone");
                    }
                    return PullOutcome.unanswered("asked alone");
                },
                true));
    }

    @Test
    void pullsThatMayGoTogetherGoInOneRequestEarliestSilenceFirstUpToTheMostAndTheOthersAlone() throws Exception {
        PullQueue queue =
                new PullQueue(oneThread, PATIENCE, clock, running::get, new Together(3, letGo, java.util.Set.of()), 2);
        keepTheThreadBusy(queue);

        submitTogether(queue, expiry("s50", 50, 140));
        submitTogether(queue, expiry("s10", 10, 100));
        submitTogether(queue, expiry("s40", 40, 130));
        submit(queue, expiry("s25-held", 25, 400));
        submitTogether(queue, expiry("s20", 20, 110));
        submitTogether(queue, expiry("s30", 30, 120));

        assertThat(pulledOnceLetGo()).containsExactly("[s10, s20, s30]", "s25-held", "[s40, s50]");
        assertThat(pulls.subList(1, pulls.size()))
                .allSatisfy(pull -> assertThat(pull.join()).isEqualTo(PullOutcome.notFound()));
    }

    @Test
    void aPullTheRequestTogetherLeftUnansweredGoesAloneAndOneWaitingByItselfGoesAloneAtOnce() throws Exception {
        PullQueue queue = new PullQueue(
                oneThread, PATIENCE, clock, running::get, new Together(3, letGo, java.util.Set.of("s20")), 2);
        keepTheThreadBusy(queue);

        submitTogether(queue, expiry("s10", 10, 100));
        submitTogether(queue, expiry("s20", 20, 110));

        assertThat(pulledOnceLetGo()).containsExactly("[s10, s20]", "s20 alone");
        assertThat(pulls.get(2).join()).isEqualTo(PullOutcome.unanswered("asked alone"));

        submitTogether(queue, expiry("s30", 30, 120));
        assertThat(pulls.get(3).get(10, TimeUnit.SECONDS)).isEqualTo(PullOutcome.unanswered("asked alone"));
    }

    /** Keeps one more thread busy until {@code release}. */
    private void occupy(PullQueue queue, String orderId, CountDownLatch release) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        pulls.add(queue.submit(new Pull(expiry(orderId, 0, 1), 0), () -> {
            started.countDown();
            release.await();
            return PullOutcome.notFound();
        }));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void whileAsManyRequestsTogetherAreInFlightAsMayBeOnlyPullsAloneGoAndTheOthersWaitForTheNext() throws Exception {
        ThreadPoolBulkhead threeThreads = ThreadPoolBulkhead.of(
                "pull-queue-test-3",
                ThreadPoolBulkheadConfig.custom()
                        .coreThreadPoolSize(3)
                        .maxThreadPoolSize(3)
                        .queueCapacity(20)
                        .build());
        CountDownLatch firstAnswered = new CountDownLatch(1);
        CountDownLatch releaseA = new CountDownLatch(1);
        CountDownLatch releaseB = new CountDownLatch(1);
        try {
            PullQueue queue = new PullQueue(
                    threeThreads, PATIENCE, clock, running::get, new Together(2, firstAnswered, java.util.Set.of()), 1);
            occupy(queue, "busy-a", releaseA);
            occupy(queue, "busy-b", releaseB);
            occupy(queue, "busy-c", letGo);
            submitTogether(queue, expiry("s10", 10, 100));
            submitTogether(queue, expiry("s20", 20, 110));
            releaseA.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.waiting() == 0);
            // one request together is in flight, as many as may be
            submitTogether(queue, expiry("s30", 30, 120));
            submitTogether(queue, expiry("s40", 40, 130));
            submit(queue, expiry("s50-alone", 50, 140));
            releaseB.countDown();

            assertThat(pulls.get(7).get(10, TimeUnit.SECONDS)).isEqualTo(PullOutcome.notFound());
            assertThat(queue.waiting())
                    .as("the pulls that may go together wait")
                    .isEqualTo(2);
            firstAnswered.countDown();

            assertThat(pulledOnceLetGo()).containsExactly("[s10, s20]", "s50-alone", "[s30, s40]");
            assertThat(queue.waiting()).isZero();
        } finally {
            firstAnswered.countDown();
            releaseA.countDown();
            releaseB.countDown();
            threeThreads.close();
        }
    }
}
