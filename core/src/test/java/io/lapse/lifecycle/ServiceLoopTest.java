package io.lapse.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServiceLoopTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-23T00:00:00Z"));

    @Test
    void anIterationThatThrowsAnErrorIsRetriedAndTheLoopStaysAlive() {
        AtomicInteger rounds = new AtomicInteger();
        try (ServiceLoop loop = new ServiceLoop(
                "test-error",
                () -> {
                    if (rounds.incrementAndGet() == 1) {
                        throw new StackOverflowError("deep");
                    }
                },
                () -> {},
                () -> {},
                clock,
                BOUND)) {
            loop.start();

            await().atMost(Duration.ofSeconds(5)).until(() -> rounds.get() > 3);
            assertThat(loop.isAlive()).isTrue();
            assertThat(loop.isHealthy()).isTrue();
        }
    }

    @Test
    void aLoopWhoseThreadEndedWithoutCloseIsDeadAndSaysWhy() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        try (ServiceLoop loop = new ServiceLoop(
                "test-dead",
                () -> {
                    running.countDown();
                    throw new InterruptedException("someone interrupted the thread");
                },
                () -> {},
                () -> {},
                clock,
                BOUND)) {
            loop.start();
            running.await();

            await().atMost(Duration.ofSeconds(5)).until(() -> !loop.isAlive());
            assertThat(loop.livenessProblem())
                    .hasValueSatisfying(p -> assertThat(p).contains("test-dead has stopped"));
            assertThat(ServiceLoop.livenessProblemOf(loop, null))
                    .hasValueSatisfying(p -> assertThat(p).contains("test-dead"));
            loop.close();
            assertThat(ServiceLoop.livenessProblemOf(loop))
                    .as("a closed loop is no problem")
                    .isEmpty();
        }
    }

    @Test
    void anIterationRunningPastTheBoundIsStuckUntilItFinishes() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger rounds = new AtomicInteger();
        try (ServiceLoop loop = new ServiceLoop(
                "test-stuck",
                () -> {
                    if (rounds.incrementAndGet() == 1) {
                        entered.countDown();
                        release.await();
                    }
                    Thread.sleep(5);
                },
                release::countDown,
                () -> {},
                clock,
                BOUND)) {
            loop.start();
            entered.await();
            clock.advance(BOUND);
            assertThat(loop.isAlive()).as("exactly at the bound").isTrue();

            clock.advance(Duration.ofSeconds(1));
            assertThat(loop.isAlive()).isFalse();
            assertThat(loop.isHealthy()).isFalse();
            assertThat(loop.livenessProblem())
                    .hasValueSatisfying(p -> assertThat(p).contains("test-stuck is stuck"));

            release.countDown();
            await().atMost(Duration.ofSeconds(5)).until(loop::isAlive);
        }
    }

    @Test
    void aLoopNotStartedOrClosedHasNoLivenessProblem() {
        ServiceLoop loop = new ServiceLoop("test-idle", () -> {}, () -> {}, () -> {});
        assertThat(loop.isAlive()).isTrue();
        loop.start();
        loop.close();
        assertThat(loop.isAlive()).isTrue();
    }
}
