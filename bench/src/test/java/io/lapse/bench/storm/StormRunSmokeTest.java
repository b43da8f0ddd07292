package io.lapse.bench.storm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.BenchReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The whole storm at a tiny size: the report's figures come from what the run did. */
@Tag("slow")
class StormRunSmokeTest {

    private static final int ORDERS = 300;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // a guard against a hang, never a measure of speed
    void aTinyStormIsMeasuredFromTheRun(@TempDir Path dir) throws Exception {
        // the fast variant's proportions at half its push interval, so that the baseline is ready in ~12 s
        StormBenchOptions options = new StormBenchOptions(
                ORDERS,
                Duration.ofSeconds(1),
                Duration.ofSeconds(3),
                // the first round of pulls takes orders ÷ rate limit = 9 s from the first expiry: a shorter silence
                // ends before every order was pulled, and the pushes coming back answer the rest
                Duration.ofSeconds(20),
                StormBenchOptions.backlogRateLimit(ORDERS, Duration.ofSeconds(3)),
                Duration.ofMillis(5),
                dir.resolve("storm.png"));

        StormResult result = StormBenchmark.measure(options);

        assertThat(result.pulledOrders()).isEqualTo(ORDERS);
        assertThat(result.upstreamCalls()).isGreaterThanOrEqualTo(ORDERS);
        assertThat(result.calls().orderWindows()).isGreaterThanOrEqualTo(ORDERS);
        assertThat(result.rates().expiries()).isGreaterThanOrEqualTo(ORDERS);
        assertThat(result.rates().peakPerSecond()).isPositive();
        assertThat(result.lateness().count()).isGreaterThanOrEqualTo(ORDERS);
        assertThat(result.lastPulledMs()).isPositive();
        assertThat(result.peakBacklog()).isPositive();
        assertThat(result.samples()).isNotEmpty();

        Path csv = StormPlot.write(result, options.plot());
        assertThat(options.plot()).isNotEmptyFile();
        assertThat(Files.readAllLines(csv)).hasSize(result.samples().size() + 1);
        String report = StormReport.markdown(
                new BenchEnvironment(LocalDate.now().toString(), 2, "test", "test", 1, "test"),
                result,
                options.plot().toString(),
                Duration.ofSeconds(1));
        assertThat(report)
                .contains(BenchReport.count(ORDERS) + " of " + BenchReport.count(ORDERS))
                .contains("SILENCE_STARTED");
    }
}
