package io.lapse.faults.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.lapse.faults.waiting.Waiting;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that becomes ready while the suite's own thread is busy with a fault (a rolling restart sleeps between
 * its steps) is seen ready when it becomes so: a real child process, its readiness answered by a local HTTP server on
 * its management port.
 */
class ReadinessWatchTest {

    private final AtomicBoolean ready = new AtomicBoolean();
    private HttpServer management;
    private LapseProcess process;

    @BeforeEach
    void processWithAManagementPort(@TempDir Path logs) throws IOException {
        management = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        management.createContext("/health/ready", exchange -> {
            int status = ready.get() ? 200 : 503;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        management.start();
        // the launcher's place taken by sleep: a child process that lives while the test runs
        process = LapseProcess.start(
                new LapseLauncher(Path.of("sleep"), Path.of("unused.jar")),
                "60",
                "sleeper",
                Map.of(),
                management.getAddress().getPort(),
                logs);
    }

    @AfterEach
    void close() {
        process.close();
        management.stop(0);
    }

    @Test
    void seesAProcessReadyWhileNobodyElseAsks() {
        ReadinessWatch watch = ReadinessWatch.start(() -> List.of(process));
        try {
            assertThat(process.startup(System.currentTimeMillis())).contains("did not answer ready");
            ready.set(true);
            // the suite's own thread sleeps through a fault's steps and asks nothing meanwhile; the watch asks
            assertThat(Waiting.until(
                            () -> process.startup(System.currentTimeMillis()).contains("answered ready"),
                            Duration.ofSeconds(10)))
                    .as(process.startup(System.currentTimeMillis()))
                    .isTrue();
        } finally {
            watch.close();
        }
    }
}
