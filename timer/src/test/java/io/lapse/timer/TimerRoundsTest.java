package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TimerRoundsTest {

    @Test
    void aWatermarkTrailingByItsUsualTensOfMillisecondsIsLookedAtAgainWithinTwo() {
        assertThat(TimerRounds.watermarkPollMillis(0)).isEqualTo(2);
        assertThat(TimerRounds.watermarkPollMillis(45)).isEqualTo(2);
    }

    @Test
    void anOlderWatermarkIsLookedAtLessOftenInProportionToItsAge() {
        assertThat(TimerRounds.watermarkPollMillis(300)).isEqualTo(15);
    }

    @Test
    void theWatermarkOfAnIngestThatIsDownIsStillLookedAtTwentyTimesASecond() {
        assertThat(TimerRounds.watermarkPollMillis(8_000)).isEqualTo(50);
        assertThat(TimerRounds.watermarkPollMillis(Long.MAX_VALUE)).isEqualTo(50);
    }
}
