package io.lapse.faults.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The chaos run of CI: three minutes of every fault kind, overlapping, drawn from a fixed seed (so that a failure here
 * replays with {@code ./lapse faults chaos --minutes 3 --seed 20261129}), judged over every silence of the run.
 * {@code -Dchaos.minutes} and {@code -Dchaos.seed} run another.
 */
@Tag("slow")
class ChaosRunTest {

    private static final long SEED = 20261129;

    @Test
    void everySilenceFiresOnTimeAndNothingElseFiresWhateverTheScheduleStrikes() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "chaos")).toAbsolutePath();
        ChaosOptions options = ChaosOptions.of(
                Duration.ofMillis(Math.round(Double.parseDouble(System.getProperty("chaos.minutes", "3")) * 60_000)),
                Long.getLong("chaos.seed", SEED),
                EnumSet.allOf(FaultKind.class),
                dir);

        ChaosRun.ChaosResult result = ChaosRun.run(options, System.out);

        assertThat(result.failures())
                .as("see the report above and %s/chaos-findings.txt", dir)
                .isEmpty();
    }
}
