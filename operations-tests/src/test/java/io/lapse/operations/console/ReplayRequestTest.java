package io.lapse.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A replay's window, fixed at its dry run: what runs later covers the same instants. */
class ReplayRequestTest {

    private static final long NOW = Instant.parse("2026-11-23T05:00:00.250Z").toEpochMilli();

    @Test
    void relativeTimesBecomeTheInstantsTheyNameAtTheDryRun() {
        ReplayRequest fixed = new ReplayRequest("expired", "-30m", null, "order-1").fixedAt(NOW);

        assertThat(fixed)
                .isEqualTo(new ReplayRequest(
                        "expired", "2026-11-23T04:30:00.250Z", "2026-11-23T05:00:00.250Z", "order-1"));
        assertThat(fixed.fixedAt(NOW + 3_600_000))
                .as("a fixed window stays where it is")
                .isEqualTo(fixed);
    }

    @Test
    void aTimeThatIsNoTimeOrAStartStillToComeIsBadRequest() {
        assertThatThrownBy(() -> new ReplayRequest("expired", "yesterday", null, null).fixedAt(NOW))
                .isInstanceOfSatisfying(
                        Refusal.class, r -> assertThat(r.status()).isEqualTo(400))
                .hasMessageStartingWith("from: cannot read 'yesterday' as a time");
        assertThatThrownBy(() -> new ReplayRequest("expired", "2026-11-24T00:00:00Z", null, null).fixedAt(NOW))
                .isInstanceOfSatisfying(
                        Refusal.class, r -> assertThat(r.status()).isEqualTo(400))
                .hasMessageContaining("is in the future");
    }
}
