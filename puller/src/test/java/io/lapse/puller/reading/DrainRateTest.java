package io.lapse.puller.reading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DrainRateTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000_000L);
    private final DrainRate drain = new DrainRate(nanos::get);

    private void answer(int count) {
        for (int i = 0; i < count; i++) {
            drain.answered();
        }
    }

    private void pass(Duration time) {
        nanos.addAndGet(time.toNanos());
    }

    @Test
    void theRateIsWhatWasAnsweredOverTheLastMinute() {
        for (int second = 0; second < 90; second++) {
            answer(second < 30 ? 50 : 10);
            pass(Duration.ofSeconds(1));
        }

        assertThat(drain.perSecond()).isCloseTo(10, within(0.5));
    }

    @Test
    void inTheFirstMinuteTheRateIsOverTheTimeSinceStart() {
        for (int second = 0; second < 10; second++) {
            answer(20);
            pass(Duration.ofSeconds(1));
        }

        assertThat(drain.perSecond()).isCloseTo(20, within(0.5));
    }

    @Test
    void nothingAnsweredWithinAMinuteIsARateOfZero() {
        answer(100);
        pass(Duration.ofSeconds(61));

        assertThat(drain.perSecond()).isZero();
    }

    @Test
    void theTimeToDrainIsTheBacklogOverTheRate() {
        assertThat(DrainRate.secondsToDrain(1_000_000, 1_000)).isEqualTo(1_000);
    }

    @Test
    void noBacklogTakesNoTimeToDrainEvenWhenNothingDrains() {
        assertThat(DrainRate.secondsToDrain(0, 0)).isZero();
    }

    @Test
    void aBacklogThatDoesNotDrainSaysSoWithMinusOneNeverInfinityOrNaN() {
        assertThat(DrainRate.secondsToDrain(5, 0))
                .isEqualTo(DrainRate.NOT_DRAINING)
                .isEqualTo(-1);
    }
}
