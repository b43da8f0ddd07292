package io.lapse.faults.soak.judge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentPushesTest {

    @Test
    void aPushInsideTheWindowIsFoundAndItsEdgesCountAsTheyShould() {
        RecentPushes pushes = new RecentPushes(3);
        pushes.add(1_000);
        pushes.add(3_000);

        assertThat(pushes.anyIn(999, 1_000)).as("the window's end is in it").isTrue();
        assertThat(pushes.anyIn(1_000, 2_999)).as("the window's start is not").isFalse();
        assertThat(pushes.last()).isEqualTo(3_000);
    }

    @Test
    void theOldestPushIsForgottenOnceMoreArriveThanAreKept() {
        RecentPushes pushes = new RecentPushes(2);
        pushes.add(1_000);
        pushes.add(2_000);
        pushes.add(3_000);

        assertThat(pushes.anyIn(0, 1_500)).isFalse();
        assertThat(pushes.anyIn(1_500, 3_000)).isTrue();
        assertThat(pushes.last()).isEqualTo(3_000);
    }
}
