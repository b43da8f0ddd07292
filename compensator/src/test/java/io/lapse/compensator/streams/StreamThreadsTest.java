package io.lapse.compensator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StreamThreadsTest {

    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-23T06:00:00Z"));
    private final StreamThreads threads = new StreamThreads(clock, Duration.ofSeconds(10));

    @Test
    void healthyWhileEveryThreadLives() {
        assertThat(threads.healthy(1, 1)).isTrue();
        assertThat(threads.healthy(0, 1))
                .as("a thread is dead and not replaced yet")
                .isFalse();
    }

    @Test
    void aThreadThatFailedKeepsTheCompensatorNotReadyForAWhileAfterItWasReplaced() {
        threads.failed();

        assertThat(threads.healthy(1, 1)).isFalse();
        clock.advance(Duration.ofSeconds(9));
        assertThat(threads.healthy(1, 1)).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(threads.healthy(1, 1)).isTrue();
    }
}
