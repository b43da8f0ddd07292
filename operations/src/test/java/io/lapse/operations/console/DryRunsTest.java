package io.lapse.operations.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.time.SettableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A run goes ahead only under the id of a recent dry run of the very same parameters, once. */
class DryRunsTest {

    private record Range(String from, String to) {}

    private final SettableClock clock = SettableClock.at(1_000_000);
    private final DryRuns<Range> dryRuns = new DryRuns<>("replay", clock);

    @Test
    void aRunOfTheParametersTheDryRunHadGoesAheadOnce() {
        String id = dryRuns.remember(new Range("-1h", "now"));

        assertThat(dryRuns.take(id, new Range("-1h", "now"))).isEmpty();
        assertThat(dryRuns.take(id, new Range("-1h", "now")))
                .hasValueSatisfying(refusal -> assertThat(refusal.status()).isEqualTo(409));
    }

    @Test
    void aRunWithoutADryRunIsBadRequest() {
        assertThat(dryRuns.take(null, new Range("-1h", "now"))).hasValueSatisfying(refusal -> {
            assertThat(refusal.status()).isEqualTo(400);
            assertThat(refusal.reason()).startsWith("a replay needs a dry run first");
        });
    }

    @Test
    void aRunWithOtherParametersIsRefusedAndTheDryRunStaysGood() {
        String id = dryRuns.remember(new Range("-1h", "now"));

        assertThat(dryRuns.take(id, new Range("-2h", "now"))).hasValueSatisfying(refusal -> {
            assertThat(refusal.status()).isEqualTo(409);
            assertThat(refusal.reason()).contains("was of another replay, with other parameters");
        });
        assertThat(dryRuns.take(id, new Range("-1h", "now"))).isEmpty();
    }

    @Test
    void aDryRunExpires() {
        String id = dryRuns.remember(new Range("-1h", "now"));
        clock.advance(DryRuns.TTL.plus(Duration.ofMillis(1)));

        assertThat(dryRuns.take(id, new Range("-1h", "now"))).hasValueSatisfying(refusal -> {
            assertThat(refusal.status()).isEqualTo(409);
            assertThat(refusal.reason()).contains("is unknown, used or older than 15 min");
        });
    }

    @Test
    void onlyTheNewestDryRunsAreKept() {
        String oldest = dryRuns.remember(new Range("-1h", "now"));
        for (int i = 0; i < DryRuns.CAPACITY; i++) {
            dryRuns.remember(new Range("-" + i + "m", "now"));
        }

        assertThat(dryRuns.take(oldest, new Range("-1h", "now"))).isPresent();
    }
}
