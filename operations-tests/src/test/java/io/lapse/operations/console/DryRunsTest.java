package io.lapse.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.time.SettableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A run goes ahead only under the id of a recent dry run, by the same user, of the very same parameters, once, and it
 * gets what the dry run ran.
 */
class DryRunsTest {

    private record Range(String from, String to) {}

    private static final Range ASKED = new Range("-1h", "now");
    private static final Range FIXED = new Range("2026-11-23T04:00:00Z", "2026-11-23T05:00:00Z");

    private final SettableClock clock = SettableClock.at(1_000_000);
    private final DryRuns<Range> dryRuns = new DryRuns<>("replay", clock);

    @Test
    void aRunOfTheParametersTheDryRunWasAskedGetsWhatItRanOnce() {
        String id = dryRuns.remember("alice", ASKED, FIXED);

        assertThat(dryRuns.take(id, "alice", ASKED)).isEqualTo(FIXED);
        assertThatThrownBy(() -> dryRuns.take(id, "alice", ASKED))
                .isInstanceOfSatisfying(
                        Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(409));
    }

    @Test
    void aRunWithoutADryRunIsBadRequest() {
        assertThatThrownBy(() -> dryRuns.take(null, "alice", ASKED))
                .isInstanceOfSatisfying(
                        Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(400))
                .hasMessageStartingWith("a replay needs a dry run first");
    }

    @Test
    void aRunWithOtherParametersIsRefusedAndTheDryRunStaysGood() {
        String id = dryRuns.remember("alice", ASKED, FIXED);

        assertThatThrownBy(() -> dryRuns.take(id, "alice", new Range("-2h", "now")))
                .isInstanceOfSatisfying(
                        Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(409))
                .hasMessageContaining("was of another replay, with other parameters");
        assertThat(dryRuns.take(id, "alice", ASKED)).isEqualTo(FIXED);
    }

    @Test
    void anotherUserCannotRunADryRunTheyDidNotLookAt() {
        String id = dryRuns.remember("alice", ASKED, FIXED);

        assertThatThrownBy(() -> dryRuns.take(id, "bob", ASKED))
                .isInstanceOfSatisfying(
                        Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(409))
                .hasMessageContaining("was alice's");
        assertThat(dryRuns.take(id, "alice", ASKED)).isEqualTo(FIXED);
    }

    @Test
    void aDryRunExpires() {
        String id = dryRuns.remember("alice", ASKED, FIXED);
        clock.advance(DryRuns.TTL.plus(Duration.ofMillis(1)));

        assertThatThrownBy(() -> dryRuns.take(id, "alice", ASKED))
                .isInstanceOfSatisfying(
                        Refusal.class, refusal -> assertThat(refusal.status()).isEqualTo(409))
                .hasMessageContaining("is unknown, used or older than 15 min");
    }

    @Test
    void onlyTheNewestDryRunsAreKept() {
        String oldest = dryRuns.remember("alice", ASKED, FIXED);
        for (int i = 0; i < DryRuns.CAPACITY; i++) {
            dryRuns.remember("alice", new Range("-" + i + "m", "now"), FIXED);
        }

        assertThatThrownBy(() -> dryRuns.take(oldest, "alice", ASKED)).isInstanceOf(Refusal.class);
    }
}
