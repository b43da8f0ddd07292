package io.lapse.compensator.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.store.timers.TimerImage;
import org.junit.jupiter.api.Test;

/** Which of its images a drift scan may write: only those whose moment has passed the round's snapshot. */
class DriftScanComparableTest {

    private static final long SNAPSHOT = 1_763_780_000_000L;
    private static final long ENDED_SINCE = SNAPSHOT - 120_000;

    @Test
    void aWatchedOrderWhoseDeadlineIsStillToComeIsLeftToItsNextPushWhateverTheTtl() {
        for (long ttl : new long[] {3_000, 90_000, 600_000}) {
            TimerImage live = watched(SNAPSHOT - 1_000, 0, SNAPSHOT - 1_000 + ttl);
            assertThat(DriftScan.comparable(live, SNAPSHOT, ENDED_SINCE))
                    .as("ttl %d ms", ttl)
                    .isFalse();
        }
    }

    @Test
    void anOrderWhoseNextExpiryWasDueBeforeTheSnapshotIsWrittenBack() {
        assertThat(DriftScan.comparable(watched(SNAPSHOT - 3_000, 0, SNAPSHOT), SNAPSHOT, ENDED_SINCE))
                .isTrue();
        assertThat(DriftScan.comparable(watched(SNAPSHOT - 9_000, 2, SNAPSHOT - 1), SNAPSHOT, ENDED_SINCE))
                .isTrue();
        assertThat(DriftScan.comparable(watched(SNAPSHOT - 9_000, 2, SNAPSHOT + 1), SNAPSHOT, ENDED_SINCE))
                .isFalse();
        assertThat(DriftScan.comparable(watched(SNAPSHOT - 900_000, 0, SNAPSHOT - 810_000), SNAPSHOT, ENDED_SINCE))
                .as("silent for long and never fired: Redis lost it, whenever")
                .isTrue();
    }

    @Test
    void aFinishedOrGivenUpOrderIsWrittenBackInTheRoundsAfterItEnded() {
        assertThat(DriftScan.comparable(ended(SNAPSHOT - 5_000), SNAPSHOT, ENDED_SINCE))
                .isTrue();
        assertThat(DriftScan.comparable(ended(SNAPSHOT + 10), SNAPSHOT, ENDED_SINCE))
                .as("not before the snapshot")
                .isFalse();
        assertThat(DriftScan.comparable(ended(ENDED_SINCE), SNAPSHOT, ENDED_SINCE))
                .as("nor once the rounds after its end are over")
                .isFalse();
        TimerImage givenUp = new TimerImage("o1", TimerImage.Phase.GIVEN_UP, SNAPSHOT - 50_000, 3, 0, SNAPSHOT - 10);
        assertThat(DriftScan.comparable(givenUp, SNAPSHOT, ENDED_SINCE)).isTrue();
    }

    private static TimerImage ended(long at) {
        return new TimerImage("o1", TimerImage.Phase.ENDED, at, 0, 0, at);
    }

    private static TimerImage watched(long lastSeen, int fired, long due) {
        return new TimerImage("o1", TimerImage.Phase.WATCHED, lastSeen, fired, fired == 0 ? 0 : due - 1_000, due);
    }
}
