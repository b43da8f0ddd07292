package io.lapse.compensator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DriftScanSettlingTest {

    @Test
    void withTheDefaultsTheScanLeavesToIngestTheOrdersThatPushedWithinTheLast20Seconds() {
        assertThat(DriftScan.settling(Duration.ofSeconds(90), Duration.ofSeconds(60)))
                .isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aLostOrderThatWentSilentIsComparedByAScanThatLeavesItsDeadlineTheHeadroom() {
        Duration ttl = Duration.ofSeconds(300);
        Duration interval = Duration.ofSeconds(60);
        Duration comparedBy = DriftScan.settling(ttl, interval).plus(interval);
        assertThat(ttl.minus(comparedBy)).isEqualTo(DriftScan.HEADROOM);
    }

    @Test
    void aScanIntervalTooLongForTheTtlComparesEveryOrderIngestReadPast() {
        assertThat(DriftScan.settling(Duration.ofSeconds(60), Duration.ofSeconds(60)))
                .isZero();
        assertThat(DriftScan.settling(Duration.ofSeconds(4), Duration.ofSeconds(5)))
                .isZero();
    }
}
