package io.lapse.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StartupTimelineTest {

    @Test
    void theProcessStartedShortlyBeforeItsJvmDid() {
        Instant jvm = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());

        // within the hundredth of a second /proc counts in, and the launcher's moment before the JVM
        assertThat(StartupTimeline.processStart()).isBetween(jvm.minusSeconds(5), jvm.plusMillis(20));
    }

    @Test
    void theSummaryNamesEachStepInOrderWithItsLength() {
        StartupTimeline timeline = new StartupTimeline(Clock.systemUTC());

        timeline.mark("JVM");
        timeline.mark("Redis");

        assertThat(timeline.summary())
                .matches("\\d+\\.\\d\\d s after the process started: JVM \\d+\\.\\d\\d s, Redis \\d+\\.\\d\\d s");
        assertThat(Duration.between(StartupTimeline.processStart(), Instant.now()))
                .isPositive();
    }
}
