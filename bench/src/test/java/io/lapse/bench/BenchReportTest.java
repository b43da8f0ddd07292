package io.lapse.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.bench.lateness.LatenessResult;
import io.lapse.bench.report.BenchEnvironment;
import io.lapse.bench.report.Rate;
import io.lapse.bench.throughput.ThroughputResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {

    private static final BenchEnvironment ENV =
            new BenchEnvironment("2026-11-22 10:00:00 UTC", 2, "Linux", "Java 17", 2_048, "6.2.11");

    @Test
    void printsHeaderThroughputAndAFailedRunWithItsReason() {
        Rate ingest = new Rate(2_000_000, 16_000_000_000L, true);
        Rate consumer = new Rate(2_000_000, 4_000_000_000L, true);
        ThroughputResult throughput = new ThroughputResult(
                2_000_000, 200_000, consumer, consumer, ingest, new Rate(2_000_000, 2_000_000_000L, true), null);
        String report = BenchReport.markdown(
                ENV,
                BenchOptions.defaults(),
                throughput,
                List.of(LatenessResult.failed("ttl", 1_000_000, "timer not ready")),
                Duration.ofSeconds(754));
        assertThat(report)
                .contains("- options: sizes 10,000, 100,000, 1,000,000; modes zset, ttl; cadence 15s; ttl 20s;"
                        + " silent 1 %; throughput pushes 2,000,000")
                .contains("Redis 6.2.11")
                .containsPattern("\\| Lapse ingest.*\\| 2,000,000 \\|\\s+16.0 \\|\\s+125,000 \\|\\s+— \\|")
                .containsPattern("\\| Kafka alone.*\\|\\s+500,000 \\|\\s+0.25 \\|")
                .containsPattern("\\| ttl  \\| 1,000,000 \\|.*\\|\\s+failed \\|")
                .contains("- ttl 1,000,000 failed: timer not ready")
                .endsWith("Total run time: 12 min 34 s\n");
    }
}
