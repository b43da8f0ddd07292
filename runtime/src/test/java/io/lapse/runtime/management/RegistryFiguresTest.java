package io.lapse.runtime.management;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RegistryFiguresTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final RegistryFigures figures = new RegistryFigures(registry);

    @Test
    void foldsTheLatenessHistogramIntoAFewBucketsThatAddUpToEveryExpiry() {
        // as the timer registers it
        Timer lateness = Timer.builder("lapse.timer.fire.lateness")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry);
        for (long millis : new long[] {3, 4, 7, 40, 2_000, 12_000}) {
            lateness.record(Duration.ofMillis(millis));
        }

        ProcessReport.Lateness folded = figures.lateness("lapse.timer.fire.lateness");

        assertThat(folded.count()).isEqualTo(6);
        assertThat(folded.histogram())
                .extracting(ProcessReport.Bucket::count)
                .containsExactly(2L, 1L, 0L, 1L, 0L, 0L, 0L, 1L, 1L);
        assertThat(folded.histogram())
                .extracting(ProcessReport.Bucket::upToMs)
                .containsExactly(5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 1_000.0, 5_000.0, null);
        assertThat(folded.p50Ms()).isBetween(3.0, 10.0);
        assertThat(folded.p99Ms()).isGreaterThan(1_000.0);
    }

    @Test
    void aTimerNotRegisteredInThisProcessShowsNoFigures() {
        assertThat(figures.lateness("lapse.timer.fire.lateness"))
                .isEqualTo(new ProcessReport.Lateness(0, null, null, java.util.List.of()));
    }

    @Test
    void countsByTagSumOverOtherTags() {
        Counter.builder("lapse.puller.pulls")
                .tag("outcome", "ok")
                .register(registry)
                .increment(3);
        Counter.builder("lapse.puller.pulls")
                .tag("outcome", "failed")
                .register(registry)
                .increment();
        Counter.builder("lapse.dlq.records")
                .tag("service", "ingest")
                .register(registry)
                .increment(2);
        Counter.builder("lapse.dlq.records")
                .tag("service", "puller")
                .register(registry)
                .increment();

        assertThat(figures.countsBy("lapse.puller.pulls", "outcome"))
                .containsEntry("ok", 3L)
                .containsEntry("failed", 1L);
        assertThat(figures.total("lapse.dlq.records")).isEqualTo(3);
    }
}
