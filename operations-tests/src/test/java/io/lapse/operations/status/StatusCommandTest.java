package io.lapse.operations.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.config.ManagementSettings;
import io.lapse.event.FleetEvent;
import io.lapse.ingest.IngestService;
import io.lapse.lifecycle.Service;
import io.lapse.operations.Lapse;
import io.lapse.operations.OnCallRig;
import io.lapse.operations.RigPerClass;
import io.lapse.operations.cli.Show;
import io.lapse.runtime.management.Health;
import io.lapse.runtime.management.ManagementServer;
import io.lapse.simulator.Fleet;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.fleet.FleetSilence;
import io.lapse.store.timers.OrderView;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** lapse status after a run: the right counts while all is well, and exit code 1 once ingest, then the timer, stops. */
@ExtendWith(RigPerClass.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the last one stops the timer
@Tag("slow")
class StatusCommandTest {

    private static OnCallRig rig;
    private static IngestService ingest;
    private static Service timer;
    private static List<String> orders;

    @BeforeAll
    static void run(OnCallRig given) {
        rig = given;
        UpstreamSimulator upstream = rig.startUpstream(Duration.ofMillis(400));
        ingest = rig.startIngest();
        timer = rig.startTimer();
        rig.startPuller(upstream);
        Fleet fleet = upstream.fleet();
        orders = fleet.startMany(20, "s-");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.store.inspect(orders).join().values().stream().allMatch(OrderView::isWatched));
        orders.subList(0, 3).forEach(fleet::silence);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> rig.records(rig.config.topics().pulled()).size() >= 3);
    }

    @Test
    @Order(1)
    void aHealthyRunShowsItsCountsAndExitsZeroThenOneOnceIngestStops() {
        String metrics = rig.metricsUrl();
        Lapse.Outcome healthy = rig.lapse("status", "--metrics", metrics, "--json");

        assertThat(healthy.exit()).as(healthy.out()).isZero();
        assertThat(healthy.json().get("problems")).isEmpty();
        assertThat(healthy.out())
                .contains(
                        "\"watched\" : 20",
                        "\"overdue\" : 0",
                        "\"role\" : \"ingest\"",
                        "\"role\" : \"puller\"",
                        "\"reached\" : [ \"" + metrics + "\" ]");
        assertThat(healthy.out()).containsPattern("\"p50Millis\" : \\d");
        assertThat(healthy.out())
                .as("every partition of push and pulled has a mark")
                .contains("\"unreportedPartitions\" : [ ]");
        Lapse.Outcome text = rig.lapse("status", "--metrics", metrics);
        assertThat(text.out())
                .contains(
                        "timers         20 watched in 4 shards:\n  s00 ",
                        "overdue        none",
                        "fire lateness  p50 ",
                        "problems       none",
                        "pull backlog   not answered ",
                        "fleet silence  none",
                        "redis epoch    on-call-test",
                        "timer shards   all 4 served by 1 timer");

        ingest.close();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Lapse.Outcome stale = rig.lapse("status", "--metrics", metrics, "--max-watermark-age", "3s");
            assertThat(stale.exit()).isEqualTo(1);
            assertThat(stale.out())
                    .contains(
                            "the watermark is ",
                            "ingest is stopped or behind",
                            "timers are overdue: the deadline passed");
        });
    }

    @Test
    @Order(3)
    void saysNothingFiresWhenNoShardHasAnEpochOrNoTimerRuns() {
        rig.redis
                .async()
                .del(IntStream.range(0, 4).mapToObj(rig.keys::epoch).toArray(String[]::new))
                .toCompletableFuture()
                .join();
        timer.close();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Lapse.Outcome outcome = rig.lapse("status", "--max-watermark-age", "1h", "--overdue-after", "1h");
            assertThat(outcome.exit()).isEqualTo(1);
            assertThat(outcome.out())
                    .contains(
                            "timer shards   none served: no timer runs",
                            "no shard has an epoch marker: nothing fires",
                            "no timer runs (the timers' group has no member): nothing fires");
        });
    }

    @Test
    @Order(4)
    void whileARebuildDeclaredItsFirstPassItSaysWhatFiresInsteadOfNothing() {
        long horizon = System.currentTimeMillis() + 60_000;
        for (int shard = 0; shard < 4; shard++) {
            rig.redis
                    .async()
                    .set(rig.keys.epochHorizon(shard), Long.toString(horizon))
                    .toCompletableFuture()
                    .join();
        }

        Lapse.Outcome outcome = rig.lapse("status", "--max-watermark-age", "1h", "--overdue-after", "1h");

        assertThat(outcome.out())
                .contains("a rebuild is under way: every shard fires only the orders it wrote that are due by "
                        + Show.time(horizon))
                .doesNotContain("no shard has an epoch marker: nothing fires");
    }

    @Test
    @Order(2)
    void aFleetSilenceIsAProblemThatSaysTheProducersStoppedWritingNotIngestReading() {
        long since = System.currentTimeMillis() - 60_000;
        FleetSilence silence = new FleetSilence(rig.redis, rig.keys);
        silence.declare(new FleetEvent(
                        FleetEvent.Kind.SILENCE_STARTED,
                        since + 15_000,
                        since,
                        rig.config.topics().push(),
                        List.of(new FleetEvent.PartitionRate(0, 0, 800), new FleetEvent.PartitionRate(2, 1, 790)),
                        20,
                        0.66))
                .join();
        try {
            Lapse.Outcome outcome = rig.lapse("status", "--max-watermark-age", "1h", "--overdue-after", "1h");

            assertThat(outcome.exit()).isEqualTo(1);
            assertThat(outcome.out())
                    .contains(
                            "fleet silence  since " + Show.time(since)
                                    + " (1 min ago): push partitions [0, 2] went silent "
                                    + "at once, 66 % of the pushes missing",
                            "the producers stopped writing, not ingest reading: expiries fire",
                            "fleet silence since " + Show.time(since) + ": the producers stopped writing to push "
                                    + "partitions [0, 2]");
        } finally {
            silence.end().join();
        }
    }

    @Test
    @Order(2)
    void aServiceItCannotReachIsAProblemNotABlindSpot() {
        String seen = rig.metricsUrl();
        String stopped = aStoppedPullersMetrics();
        String[] lenient = {"--max-watermark-age", "1h", "--overdue-after", "1h"};

        Lapse.Outcome seeing = rig.lapse(with(lenient, "--metrics", seen));
        Lapse.Outcome blind = rig.lapse(with(lenient, "--metrics", seen, "--metrics", stopped));

        assertThat(seeing.exit()).as(seeing.out()).isZero();
        assertThat(blind.exit()).as(blind.out()).isEqualTo(1);
        assertThat(blind.out())
                .contains(
                        "fire lateness  p50 ",
                        "; not reached: " + stopped + ": ",
                        "problems       1\n  - a service does not answer (" + stopped + ": ",
                        "lapse status cannot see its fire lateness, pull backlog, parked pulls or drift scan");
    }

    /** Where a puller that has stopped served its metrics: nothing answers there now. */
    private static String aStoppedPullersMetrics() {
        try (ManagementServer puller = ManagementServer.start(
                new ManagementSettings("127.0.0.1", 0, "lapse"),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                new Health())) {
            return "http://127.0.0.1:" + puller.port() + "/metrics";
        }
    }

    private static String[] with(String[] options, String... more) {
        return Stream.concat(Stream.of("status"), Stream.concat(Stream.of(options), Stream.of(more)))
                .toArray(String[]::new);
    }
}
