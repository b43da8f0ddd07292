package io.lapse.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        BenchOptions options = BenchOptions.defaults();
        assertThat(options.sizes()).containsExactly(10_000, 100_000, 1_000_000);
        assertThat(options.modes()).containsExactly("zset", "ttl");
        assertThat(options.cadence()).isEqualTo(Duration.ofSeconds(15));
        assertThat(options.ttl()).isEqualTo(Duration.ofSeconds(20));
        assertThat(options.silentFraction()).isEqualTo(0.01);
        assertThat(options.throughputPushes()).isEqualTo(2_000_000);
        assertThat(options.output()).isNull();
    }

    @Test
    void refusesATtlNoLongerThanTheCadence() {
        assertThatThrownBy(() -> new BenchOptions(
                        List.of(10), List.of("zset"), Duration.ofSeconds(20), Duration.ofSeconds(20), 0.01, 0, null))
                .hasMessageContaining("must be longer than the cadence");
    }

    @Test
    void refusesUnknownModesAndAcceptsAnyCase() {
        assertThat(new BenchOptions(
                                List.of(10), List.of("ZSET"), Duration.ofSeconds(1), Duration.ofSeconds(2), 0, 0, null)
                        .modes())
                .containsExactly("zset");
        assertThatThrownBy(() -> new BenchOptions(
                        List.of(10), List.of("wheel"), Duration.ofSeconds(1), Duration.ofSeconds(2), 0, 0, null))
                .hasMessageContaining("zset or ttl");
    }
}
