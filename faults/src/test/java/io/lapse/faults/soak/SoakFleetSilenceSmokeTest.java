package io.lapse.faults.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.lapse.bench.StormResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The soak's expiry storm, small: 300 orders pushing every 2 s with a 6 s ttl stop pushing at once for 12 s (two ttl)
 * once the fleet-silence baseline stands (24 s in), then push again; sessions of 12 to 40 s, so that orders finish
 * during the storm. Asserts what the operator and the storm benchmark's reader rely on, from the topics and the
 * simulated upstream: the silence is said once, every silent order is pulled at most once per ttl and none after its
 * terminal status, nothing fires falsely after the resume, and the plot and its samples are written.
 */
@Tag("slow")
class SoakFleetSilenceSmokeTest {

    @Test
    void aSilentFleetIsSaidOncePulledOncePerTtlAndNoneFiresFalselyAfterItResumes() throws Exception {
        SoakOptions options = new SoakOptions(
                300,
                Duration.ofSeconds(36),
                Duration.ofSeconds(2),
                Duration.ofSeconds(6),
                0.05,
                Duration.ofSeconds(12),
                Duration.ofSeconds(40),
                3,
                Path.of("target", "soak-storm-smoke"),
                SoakFault.FLEET_SILENCE,
                Duration.ofSeconds(12),
                200);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        SoakResult result = SoakRun.run(options, new PrintStream(printed, true, StandardCharsets.UTF_8));
        String report = printed.toString(StandardCharsets.UTF_8);
        StormOutcome storm = result.storm();
        StormResult figures = storm.figures();

        assertThat(storm.silenceStarts()).as(report).isEqualTo(1);
        assertThat(storm.silenceEnds()).as(report).isEqualTo(1);
        assertThat(storm.stormOrders()).as(report).isGreaterThan(options.orders() / 2);
        assertThat(figures.pulledOrders()).as(report).isEqualTo(storm.stormOrders());
        assertThat(figures.upstreamCalls()).as(report).isGreaterThanOrEqualTo(storm.stormOrders());
        assertThat(figures.callsPerOrder()).as(report).isLessThanOrEqualTo(StormOutcome.MOST_CALLS_PER_ORDER);
        assertThat(storm.finishedInStorm())
                .as("orders that finished during the storm")
                .isPositive();
        assertThat(storm.pulledAfterTerminal()).as(report).isZero();
        assertThat(figures.falseAfterResume()).as(report).isZero();
        assertThat(result.falseExpiries()).as(report).isZero();
        assertThat(report).contains("fleet silence raised / cleared", "met");
        assertThat(Files.size(result.dir().resolve("storm.png"))).isGreaterThan(1000);
        assertThat(Files.readAllLines(result.dir().resolve("storm.csv"))).hasSizeGreaterThan(10);
    }
}
