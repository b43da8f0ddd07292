package io.lapse.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class StartupRetryTest {

    @Test
    void retriesWhatMayPassLaterWithAGrowingPauseThenSaysItIsNoLongerWaiting() {
        try (StartupRetry startup = new StartupRetry()) {
            AtomicInteger attempts = new AtomicInteger();

            String result = startup.until(
                    "Redis at redis://u:pw@redis:6379",
                    () -> {
                        if (attempts.incrementAndGet() < 3) {
                            throw new IllegalStateException("refused by redis://u:pw@redis:6379");
                        }
                        return "connected";
                    },
                    e -> true);

            assertThat(result).isEqualTo("connected");
            assertThat(attempts).hasValue(3);
            assertThat(startup.problem()).as("not waiting, not finished").hasValue("starting");
            startup.finished();
            assertThat(startup.problem()).isEmpty();
        }
    }

    @Test
    void whatCannotPassLaterFailsAtOnce() {
        try (StartupRetry startup = new StartupRetry()) {
            AtomicInteger attempts = new AtomicInteger();

            assertThatThrownBy(() -> startup.until(
                            "Kafka at kafka:9092",
                            () -> {
                                attempts.incrementAndGet();
                                throw new IllegalArgumentException("topics.create=false and the topic is missing");
                            },
                            e -> !(e instanceof IllegalArgumentException)))
                    .hasMessageContaining("topics.create=false");
            assertThat(attempts).hasValue(1);
        }
    }

    @Test
    void thePauseGrowsToFifteenSeconds() {
        assertThat(StartupRetry.pauseAfter(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(StartupRetry.pauseAfter(2)).isEqualTo(Duration.ofSeconds(1));
        assertThat(StartupRetry.pauseAfter(6)).isEqualTo(Duration.ofSeconds(15));
        assertThat(StartupRetry.pauseAfter(60)).isEqualTo(Duration.ofSeconds(15));
    }
}
