package io.lapse.operations.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the timers fired between two readings of their /metrics, and its quantiles. */
class LatenessHistogramTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void theDifferenceOfTwoReadingsIsWhatWasFiredBetweenThem() {
        LatenessHistogram before = new LatenessHistogram(Map.of(0.1, 10.0, 1.0, 10.0, INF, 10.0));
        LatenessHistogram after = new LatenessHistogram(Map.of(0.1, 10.0, 1.0, 14.0, INF, 14.0));

        LatenessHistogram between = after.since(before);

        assertThat(between.fired()).isEqualTo(4);
        assertThat(between.quantileMillis(0.5)).isCloseTo(550.0, within(0.1));
    }

    @Test
    void aCountThatWentDownIsAServiceThatRestarted() {
        LatenessHistogram before = new LatenessHistogram(Map.of(1.0, 10.0, INF, 10.0));
        LatenessHistogram restarted = new LatenessHistogram(Map.of(1.0, 2.0, INF, 2.0));

        assertThat(restarted.since(before)).isEqualTo(restarted);
    }

    @Test
    void nothingFiredHasNoQuantile() {
        assertThat(LatenessHistogram.EMPTY.quantileMillis(0.99)).isNull();
        assertThat(LatenessHistogram.EMPTY.fired()).isZero();
    }

    @Test
    void theBucketsOfEveryServiceAdd() {
        LatenessHistogram one =
                LatenessHistogram.of(PrometheusText.parse("lapse_timer_fire_lateness_seconds_bucket{le=\"1.0\"} 3\n"
                        + "lapse_timer_fire_lateness_seconds_bucket{le=\"+Inf\"} 4\n"
                        + "lapse_puller_backlog_all 7\n"));

        assertThat(one.plus(one).cumulative()).isEqualTo(Map.of(1.0, 6.0, INF, 8.0));
    }
}
