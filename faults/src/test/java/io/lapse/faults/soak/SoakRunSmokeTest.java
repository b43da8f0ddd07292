package io.lapse.faults.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The real soak, small: broker, redis-server, the load generator and the four services as processes, 300 orders
 * pushing every 2 s with a 6 s ttl for 24 s (the shortest run that judges a silent order: ttl + 10 s + two pushes),
 * a tenth of them going silent and sessions of 12 to 40 s, so that orders finish and are replaced within the run. Asserts what a user of the soak relies on: its silent orders are fired
 * in time and none falsely, and it reports every lag and writes its CSV and plots.
 */
@Tag("slow")
class SoakRunSmokeTest {

    @Test
    void silentOrdersFireInTimeNoneFalselyAndEveryFigureIsWritten() throws Exception {
        SoakOptions options = new SoakOptions(
                300,
                Duration.ofSeconds(24),
                Duration.ofSeconds(2),
                Duration.ofSeconds(6),
                0.1,
                Duration.ofSeconds(12),
                Duration.ofSeconds(40),
                3,
                Path.of("target", "soak-smoke"),
                null,
                Duration.ofMinutes(3),
                200);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        SoakResult result = SoakRun.run(options, new PrintStream(printed, true, StandardCharsets.UTF_8));
        String report = printed.toString(StandardCharsets.UTF_8);

        assertThat(result.fired()).as(report).isGreaterThanOrEqualTo(20);
        assertThat(result.missed()).as(report).isZero();
        assertThat(result.falseExpiries()).as(report).isZero();
        assertThat(result.revived()).as(report).isZero();
        long[] lateness = result.lateness();
        assertThat(lateness).as(report).isNotEmpty();
        assertThat(Arrays.stream(lateness).max().orElseThrow())
                .as("the latest expiry of a silent order, ms")
                .isLessThan(SoakOptions.GRACE.toMillis());
        assertThat(result.last().get("finished.orders"))
                .as("orders that finished and were replaced")
                .isPositive();
        for (String service : Sampler.GROUPS) {
            assertThat(result.lagRecords(service)).as(service + "'s lag").isNotNaN();
        }
        assertThat(report).contains("| ingest ", "| compensator ", "| puller ");
        assertThat(Files.readAllLines(result.dir().resolve("samples.csv"))).hasSizeGreaterThan(5);
        for (String png : new String[] {"lag.png", "lateness.png", "cpu.png"}) {
            assertThat(Files.size(result.dir().resolve(png))).as(png).isGreaterThan(1000);
        }
    }
}
