package io.lapse.bench.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lapse.bench.harness.ExpiryCollector.Expiry;
import java.util.List;
import org.junit.jupiter.api.Test;

class StormLatenessPartsTest {

    @Test
    void theClaimIsSplitFromThePublishAndEachOrdersFirstExpiryFromThoseAfterARearm() {
        StormLatenessParts parts = StormLatenessParts.of(List.of(
                new Expiry("a", 1_000, 1, 1_100, 1_200),
                new Expiry("b", 2_000, 1, 2_000, 2_300),
                new Expiry("a", 5_000, 1, 5_050, 9_000),
                new Expiry("b", 5_000, 2, 5_000, 5_000)));

        assertThat(parts.toClaim().count()).isEqualTo(3);
        assertThat(parts.toClaim().max()).isCloseTo(100, within(1L));
        assertThat(parts.firstOfOrder().count()).isEqualTo(2);
        assertThat(parts.firstOfOrder().max()).isCloseTo(300, within(1L));
        assertThat(parts.afterRearm().count()).isEqualTo(1);
        assertThat(parts.afterRearm().max()).isCloseTo(4_000, within(4L));
        assertThat(parts.sentence()).contains("claim in Redis", "re-armed");
    }
}
