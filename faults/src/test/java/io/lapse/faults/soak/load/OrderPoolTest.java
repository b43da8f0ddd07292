package io.lapse.faults.soak.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OrderPoolTest {

    @Test
    void drawsEveryOrderOnceAndNeverOneThatWasRemoved() {
        OrderPool pool = new OrderPool();
        for (int i = 0; i < 100; i++) {
            pool.add("order-" + i);
        }
        assertThat(pool.remove("order-7")).isTrue();
        assertThat(pool.remove("order-7")).isFalse();

        Set<String> drawn = new HashSet<>();
        SplittableRandom random = new SplittableRandom(1);
        for (String id; (id = pool.removeAny(random)) != null; ) {
            assertThat(drawn.add(id)).as(id + " drawn twice").isTrue();
        }

        assertThat(drawn).hasSize(99).doesNotContain("order-7");
        assertThat(pool.size()).isZero();
    }
}
