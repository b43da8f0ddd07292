package io.lapse.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WatermarkAgeTest {

    private static final long START = 1_800_000_000_000L;

    @Test
    void aFreshReadingTellsHowFarTheMarkTrailedWhenItWasRead() {
        WatermarkAge age = new WatermarkAge(START);

        age.read(OptionalLong.of(START + 10_000 - 40), START + 10_000);

        assertThat(age.millis(START + 10_000 + WatermarkAge.FRESH_MS)).isEqualTo(40);
    }

    @Test
    void runsOnFromTheLastMarkWhileTheTimerCannotReadOne() {
        WatermarkAge age = new WatermarkAge(START);
        age.read(OptionalLong.of(START + 10_000 - 40), START + 10_000);

        assertThat(age.millis(START + 70_000)).isEqualTo(60_040);
    }

    @Test
    void withNoWatermarkEverItIsAsOldAsTheTimer() {
        WatermarkAge age = new WatermarkAge(START);
        age.read(OptionalLong.empty(), START + 30_000);

        assertThat(age.millis(START + 30_000)).isEqualTo(30_000);
    }

    @Test
    void aWatermarkThatVanishesAgesFromTheLastOneSeen() {
        WatermarkAge age = new WatermarkAge(START);
        age.read(OptionalLong.of(START + 5_000), START + 5_000);

        age.read(OptionalLong.empty(), START + 20_000);

        assertThat(age.millis(START + 20_000)).isEqualTo(15_000);
    }
}
