package io.lapse.puller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.PullResult.ExpiryRef;
import io.lapse.event.PullResult.Outcome;
import io.lapse.event.TimerExpired;
import io.lapse.pipeline.ServiceProcess;
import io.lapse.puller.Pipeline.With;
import io.lapse.simulator.Outage;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The puller against the simulated upstream's faults: stalls, storms, a kill, and upstreams that want credentials. */
@Tag("slow")
class PullerFaultsTest extends PipelineTest {

    private void start(Map<String, String> given, With with) {
        // nobody reads the pushes here: one round right at the start, with no orders yet
        start(Duration.ofHours(1), given, with, "");
    }

    /** Sends attempt-1 expiries of these orders, all at once. */
    private List<TimerExpired> expire(List<String> orderIds) {
        long lastSeen = System.currentTimeMillis() - 10_000;
        List<TimerExpired> expiries = orderIds.stream()
                .map(id -> new TimerExpired(
                        id,
                        lastSeen + 9_000,
                        lastSeen,
                        1,
                        System.currentTimeMillis(),
                        TimerExpired.Source.TIMER,
                        false))
                .toList();
        lapse.send(
                lapse.config.topics().expired(),
                expiries.stream().collect(Collectors.toMap(TimerExpired::orderId, JsonCodec.TIMER_EXPIRED::encode)));
        return expiries;
    }

    private Map<ExpiryRef, List<PullResult>> resultsByTriple(String orderId) {
        return lapse.results().stream()
                .filter(r -> r.orderId().equals(orderId))
                .collect(Collectors.groupingBy(PullResult::expiry));
    }

    private Map<String, Long> resultCounts() {
        return lapse.results().stream().collect(Collectors.groupingBy(PullResult::orderId, Collectors.counting()));
    }

    private double transitionsTo(String state) {
        Counter counter = lapse.pullerMetrics()
                .find("lapse.puller.circuit.transitions")
                .tag("to", state)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aTenSecondStallTimesRequestsOutOpensTheCircuitAndEveryExpiryIsPulledOnceItCloses() {
        start(Map.of("upstream.timeout", "500ms"), With.NOTHING_ELSE);
        List<String> orders = simulator.fleet().startMany(40, "stall-");
        long stallEnds = System.currentTimeMillis() + 10_000;
        simulator.api().outage(Outage.of(Duration.ofSeconds(10), Outage.Kind.STALL));

        expire(orders);

        await().atMost(Duration.ofSeconds(10)).until(() -> transitionsTo("open") >= 1);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> resultCounts().keySet().containsAll(orders));
        assertThat(lapse.results()).hasSize(orders.size()).allSatisfy(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.OK);
            assertThat(r.pulledAt()).isGreaterThanOrEqualTo(stallEnds);
        });
        assertThat(transitionsTo("closed")).isGreaterThanOrEqualTo(1);
        assertThat(lapse.pullerMetrics()
                        .get("lapse.puller.circuit.state")
                        .tag("state", "closed")
                        .gauge()
                        .value())
                .isEqualTo(1);
    }

    @Test
    void fiveThousandSimultaneousExpiriesAreAllAnsweredWithoutUpstreamSeeingMoreThanTheRateLimit() {
        start(Map.of("upstream.rate-limit", "500"), With.NOTHING_ELSE);
        List<String> orders = simulator.fleet().startMany(5_000, "storm-");

        expire(orders);

        await().atMost(Duration.ofSeconds(40)).until(() -> resultCounts().size() == orders.size());
        assertThat(simulator.api().peakRequestsPerSecond())
                .as("most requests upstream saw within one second")
                .isBetween(1, 500);
        assertThat(resultCounts().values()).as("results per expiry").containsOnly(1L);
        assertThat(lapse.results()).allSatisfy(r -> assertThat(r.outcome()).isEqualTo(Outcome.OK));
    }

    @Test
    void aPullerKilledMidStormAndRestartedAnswersEveryExpiryAtLeastOnceAndAlmostAllExactlyOnce(@TempDir Path dir)
            throws Exception {
        // the killed member leaves the group only when its session times out: the broker's least, not 45 s
        start(Map.of("upstream.rate-limit", "200", "kafka.session.timeout.ms", "6000"), With.NO_PULLER);
        List<String> orders = simulator.fleet().startMany(1_000, "kill-");
        expire(orders);

        Process puller = ServiceProcess.start("puller", lapse.settings, dir.resolve("puller.log"));
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> lapse.results().size() >= 300);
        } finally {
            puller.destroyForcibly().waitFor();
        }
        assertThat(lapse.results().size()).as("answered before the kill").isLessThan(orders.size());
        lapse.startPuller();

        await().atMost(Duration.ofSeconds(40))
                .until(() -> resultCounts().keySet().containsAll(orders));
        Map<String, Long> counts = resultCounts();
        long repeated = counts.values().stream().filter(n -> n > 1).count();
        // only expiries read and not yet committed when the puller died are answered again
        int inFlightBound = 4 * lapse.config.upstream().concurrency()
                + lapse.config.upstream().concurrency();
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(1L, 2L));
        assertThat(repeated).isLessThanOrEqualTo(inFlightBound);
        assertThat(Files.readString(dir.resolve("puller.log"))).contains("puller reads");
    }

    @Test
    void upstreamSeesTheConfiguredHeaderAndBearerTokenWhichNoLogLineShowsAndARefusalOfThemIsAnOutage(@TempDir Path dir)
            throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        start(
                Map.of(
                        "upstream.bearer-token-file",
                        token.toString(),
                        "upstream.headers.X-Api-Key",
                        "k-123",
                        "upstream.max-attempts",
                        "1",
                        "upstream.circuit-open",
                        "500ms"),
                With.NOTHING_ELSE);
        simulator.api().requireHeader("Authorization", "Bearer s3cret-token");
        simulator.api().requireHeader("X-Api-Key", "k-123");
        List<String> orders = simulator.fleet().startMany(1, "auth-");

        expire(orders);

        await().atMost(Duration.ofSeconds(20)).until(() -> resultCounts().containsKey(orders.get(0)));
        assertThat(lapse.results())
                .singleElement()
                .satisfies(r -> assertThat(r.outcome()).isEqualTo(Outcome.OK));
        simulator.api().requireHeader("X-Api-Key", "another key");
        List<String> refused = simulator.fleet().startMany(1, "refused-");
        expire(refused);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> lapse.pullerMetrics()
                                .get("lapse.puller.outage")
                                .tag("cause", "credentials")
                                .gauge()
                                .value()
                        == 1);
        assertThat(resultCounts()).as("waits for upstream, not FAILED").doesNotContainKey(refused.get(0));

        simulator.api().requireHeader("X-Api-Key", "k-123");

        await().atMost(Duration.ofSeconds(20)).until(() -> resultCounts().containsKey(refused.get(0)));
        assertThat(resultsByTriple(refused.get(0)).values())
                .singleElement()
                .satisfies(results -> assertThat(results.get(0).outcome()).isEqualTo(Outcome.OK));
        assertThat(lapse.config.source().describeOverrides())
                .contains("upstream.headers.X-Api-Key=****")
                .doesNotContain("k-123");
        assertThat(lapse.config.upstream().access().toString())
                .doesNotContain("k-123")
                .doesNotContain("s3cret");
    }
}
