package io.lapse.faults.soak.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CohortSizesTest {

    @Test
    void fiveHundredOperatorsOfAMillionOrdersAreALongTailThatAddsUp() {
        CohortSizes sizes = CohortSizes.zipf(1_000_000, 500);

        assertThat(sizes.cohorts()).isEqualTo(500);
        assertThat(sizes.orders()).isEqualTo(1_000_000);
        List<Integer> s = sizes.sizes();
        assertThat(s).isSortedAccordingTo((a, b) -> Integer.compare(b, a));
        // 1/k over the harmonic number H(500) = 6.79: the biggest about a seventh, the smallest about 0.03 %
        assertThat(s.get(0)).isBetween(147_000, 148_000);
        assertThat(s.get(1)).isBetween(73_500, 74_000);
        assertThat(s.get(499)).isBetween(290, 300);
        // the ten biggest hold more than the 400 smallest: the tail is long
        int top = s.subList(0, 10).stream().mapToInt(Integer::intValue).sum();
        int tail = s.subList(100, 500).stream().mapToInt(Integer::intValue).sum();
        assertThat(top).isGreaterThan(tail);
    }

    @Test
    void theCohortOfOnePercentIsTheFifteenth() {
        CohortSizes sizes = CohortSizes.zipf(1_000_000, 500);

        int silent = sizes.nearest(0.01);

        assertThat(CohortSizes.name(silent)).isEqualTo("op-15");
        assertThat(sizes.sizes().get(silent)).isBetween(9_500, 10_500);
    }

    @Test
    void everyCohortHasAnOrderEvenWhenTheyAreAsManyAsTheOrders() {
        CohortSizes sizes = CohortSizes.zipf(500, 500);

        assertThat(sizes.sizes()).containsOnly(1);
        assertThat(CohortSizes.zipf(1_000, 500).sizes()).allMatch(size -> size >= 1);
        assertThat(CohortSizes.zipf(1_000, 500).orders()).isEqualTo(1_000);
        assertThatThrownBy(() -> CohortSizes.zipf(499, 500)).hasMessageContaining("cohorts from 1 to the orders");
    }
}
