package io.lapse.operations.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What lapse status reads from a service's /metrics, as a compensator, a timer and a puller export them. */
class ServiceMetricsTest {

    private static final String METRICS = """
            # TYPE lapse_compensator_scan_last_seconds gauge
            lapse_compensator_scan_last_seconds{scan="drift"} 1.7639E9
            lapse_compensator_scan_last_seconds{scan="full"} 1.7640E9
            # TYPE lapse_timer_fire_lateness_seconds histogram
            lapse_timer_fire_lateness_seconds_bucket{le="0.005"} 10.0
            lapse_timer_fire_lateness_seconds_bucket{le="0.05"} 100.0
            lapse_timer_fire_lateness_seconds_bucket{le="+Inf"} 100.0
            # TYPE lapse_puller_held gauge
            lapse_puller_held 3.0
            # TYPE lapse_puller_outage gauge
            lapse_puller_outage{cause="credentials"} 1.0
            lapse_puller_outage{cause="unanswered"} 0.0
            # TYPE lapse_puller_outage_since_seconds gauge
            lapse_puller_outage_since_seconds 1.7639E9
            # TYPE lapse_compensator_rebuild_behind_records gauge
            lapse_compensator_rebuild_behind_records 1200.0
            """;

    private HttpServer server;

    @BeforeEach
    void serveMetrics() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", exchange -> {
            byte[] body = METRICS.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void theLastDriftScanIsTheCompensatorsPeriodicScanNotARebuild() {
        ServiceMetrics.Reading reading = ServiceMetrics.read(List.of(url()), Duration.ofSeconds(2));

        assertThat(reading.reached()).containsExactly(url());
        assertThat(reading.lastDriftScan()).isEqualTo(1_763_900_000_000L);
        assertThat(reading.fired()).isEqualTo(100);
    }

    @Test
    void anUpstreamOutageIsReadWithItsCauseAndSince() {
        ServiceMetrics.Reading reading = ServiceMetrics.read(List.of(url()), Duration.ofSeconds(2));

        assertThat(reading.outage()).isEqualTo("credentials");
        assertThat(reading.outageSince()).isEqualTo(1_763_900_000_000L);
    }

    @Test
    void pullsParkedForAnAnswerAreAddedUpOverThePullersReached() {
        ServiceMetrics.Reading reading = ServiceMetrics.read(List.of(url(), url()), Duration.ofSeconds(2));

        assertThat(reading.heldPulls()).isEqualTo(6);
    }

    @Test
    void aPostponedRebuildTellsHowManyRecordsItsMirrorMustReadFirst() {
        ServiceMetrics.Reading reading = ServiceMetrics.read(List.of(url()), Duration.ofSeconds(2));

        assertThat(reading.rebuildBehind()).isEqualTo(1200);
    }

    @Test
    void aServiceThatDoesNotAnswerIsListedWithTheReason() {
        server.stop(0);

        ServiceMetrics.Reading reading = ServiceMetrics.read(List.of(url()), Duration.ofSeconds(2));

        assertThat(reading.unreachable()).singleElement().asString().startsWith(url());
        assertThat(reading.lastDriftScan()).isNull();
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
    }
}
