package io.lapse.faults.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceProfilesTest {

    @TempDir
    Path dir;

    @Test
    void theMethodThatSpentTheCpuLeadsTheProcessTable() throws Exception {
        Path recording = dir.resolve("compensator-1.jfr");
        try (Recording jfr = new Recording()) {
            jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            jfr.start();
            // on a loaded machine a second of spinning may get few samples among the other threads': spin on
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                spinFor(Duration.ofSeconds(1));
                jfr.dump(recording);

                assertThat(new ServiceProfiles(dir).topFrames())
                        .contains("compensator-1: ", "io.lapse.faults.soak.ServiceProfilesTest$Busy.spin");
            });
        }
        assertThat(Files.size(recording)).isPositive();
    }

    private static void spinFor(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        double sink = 0;
        while (System.nanoTime() < until) {
            sink += Busy.spin(sink);
        }
        assertThat(sink).isNotNaN();
    }

    @Test
    void optionsNameOneRecordingPerProcessInAFolderThatExists() {
        Path profiles = dir.resolve("profiles");
        assertThat(new ServiceProfiles(profiles).jvmOptions("timer-2"))
                .containsSubsequence("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints")
                .filteredOn(option -> option.startsWith("-XX:StartFlightRecording="))
                .singleElement()
                .asString()
                .contains(profiles.resolve("timer-2.jfr").toString(), "settings=profile", "dumponexit=true");
        assertThat(profiles).isDirectory();
    }

    static final class Busy {
        static double spin(double seed) {
            double x = seed;
            for (int i = 0; i < 100_000; i++) {
                x = Math.sin(x + i);
            }
            return x;
        }
    }
}
