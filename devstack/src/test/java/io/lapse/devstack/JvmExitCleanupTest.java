package io.lapse.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class JvmExitCleanupTest {

    @Test
    void aJvmThatExitsWithoutCloseStillStopsRedisAndDeletesItsDir() throws Exception {
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ForgetsToCloseRedis.class.getName())
                .redirectError(Redirect.INHERIT)
                .start();
        String report;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            // the child's log lines share stdout with the report
            report = out.lines()
                    .filter(line -> line.startsWith(ForgetsToCloseRedis.REPORT_PREFIX))
                    .findFirst()
                    .orElse(null);
        }
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child JVM exited").isTrue();
        assertThat(report).as("child reported its redis pid and dir").isNotNull();

        String[] pidAndDir =
                report.substring(ForgetsToCloseRedis.REPORT_PREFIX.length()).split(" ", 2);
        long redisPid = Long.parseLong(pidAndDir[0]);
        Path redisDir = Path.of(pidAndDir[1]);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ProcessHandle.of(redisPid)
                        .filter(ProcessHandle::isAlive)
                        .isEmpty());
        assertThat(redisDir).doesNotExist();
    }
}
