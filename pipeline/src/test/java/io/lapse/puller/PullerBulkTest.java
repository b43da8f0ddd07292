package io.lapse.puller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.PullResult.Outcome;
import io.lapse.event.TimerExpired;
import io.lapse.metrics.MetricNames;
import io.lapse.puller.Pipeline.With;
import io.lapse.simulator.Outage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Bulk requests on a real broker and Redis against the simulated upstream: a backlog of silent orders goes to upstream
 * in bulk requests, and every expiry still gets exactly one result, whatever the bulk answer left out or the bulk path
 * refused.
 */
@Tag("slow")
class PullerBulkTest extends PipelineTest {

    private static final String BULK_PATH = "/orders/statuses";

    private void start(Map<String, String> given) {
        // nobody reads the pushes here: one round right at the start, with no orders yet
        start(Duration.ofHours(1), given, With.NOTHING_ELSE, "");
    }

    /** Sends attempt-1 expiries of these orders, all at once, each silent a millisecond longer than the next. */
    private void expire(List<String> orderIds) {
        long lastSeen = System.currentTimeMillis() - 60_000;
        Map<String, byte[]> expiries = new java.util.HashMap<>();
        for (int i = 0; i < orderIds.size(); i++) {
            TimerExpired expiry = new TimerExpired(
                    orderIds.get(i),
                    lastSeen + i + 9_000,
                    lastSeen + i,
                    1,
                    System.currentTimeMillis(),
                    TimerExpired.Source.TIMER,
                    false);
            expiries.put(expiry.orderId(), JsonCodec.TIMER_EXPIRED.encode(expiry));
        }
        lapse.send(lapse.config.topics().expired(), expiries);
    }

    private Map<String, List<PullResult>> resultsByOrder() {
        return lapse.results().stream().collect(Collectors.groupingBy(PullResult::orderId));
    }

    private double singleRequests() {
        return lapse.pullerMetrics().get(MetricNames.PULLER_REQUEST).timer().count();
    }

    @Test
    void aBacklogGoesInBulkRequestsAndEveryExpiryGetsOneResultWhateverTheAnswerLeftOut() {
        start(Map.of(
                "upstream.bulk-path", BULK_PATH,
                "upstream.bulk-size", "50",
                "upstream.rate-limit", "1000"));
        simulator.api().serveBulk(BULK_PATH);
        List<String> known = simulator.fleet().startMany(2_000, "bulk-");
        Set<String> leftOut = Set.of(known.get(500), known.get(1_500));
        simulator.api().leaveOutOfBulk(leftOut);
        List<String> unknown = List.of("bulk-unknown-1", "bulk-unknown-2");
        List<String> all = new ArrayList<>(known);
        all.addAll(1_000, unknown);

        expire(all);

        await().atMost(Duration.ofSeconds(60)).until(() -> resultsByOrder().size() == all.size());
        Map<String, List<PullResult>> results = resultsByOrder();
        assertThat(results.values())
                .as("results per expiry")
                .allSatisfy(r -> assertThat(r).hasSize(1));
        assertThat(known)
                .allSatisfy(orderId -> assertThat(results.get(orderId).get(0).outcome())
                        .as(orderId)
                        .isEqualTo(Outcome.OK));
        assertThat(unknown)
                .allSatisfy(orderId -> assertThat(results.get(orderId).get(0).outcome())
                        .as(orderId)
                        .isEqualTo(Outcome.NOT_FOUND));
        assertThat(leftOut)
                .as("pulled alone once the bulk answer left them out")
                .allSatisfy(orderId ->
                        assertThat(simulator.fleet().pullsServed(orderId)).isEqualTo(1));
        long bulkRequests = simulator.api().bulkRequests();
        assertThat(bulkRequests).as("bulk requests upstream served").isBetween(1L, all.size() / 10L);
        assertThat(singleRequests())
                .as("single requests: the first pulls, before a backlog formed, and those left out")
                .isLessThan(all.size() / 10.0);
        assertThat(simulator.api().totalRequests())
                .as("calls per order, alone or together: one each, and the left-out ones once more")
                .isBetween((long) all.size(), (long) all.size() + leftOut.size());
        assertThat(lapse.deadLetters.values(JsonCodec.DEAD_LETTER::decode)).isEmpty();
    }

    @Test
    void aBulkPathUpstreamDoesNotServeTurnsBulkRequestsOffAndEveryOrderIsPulledAlone() {
        start(Map.of(
                "upstream.bulk-path", "/no/such/path",
                "upstream.bulk-size", "50",
                "upstream.rate-limit", "1000"));
        simulator.api().serveBulk(BULK_PATH);
        List<String> orders = simulator.fleet().startMany(500, "alone-");

        expire(orders);

        await().atMost(Duration.ofSeconds(60)).until(() -> resultsByOrder().size() == orders.size());
        assertThat(resultsByOrder().values())
                .allSatisfy(r -> assertThat(r)
                        .singleElement()
                        .satisfies(result -> assertThat(result.outcome()).isEqualTo(Outcome.OK)));
        assertThat(simulator.api().bulkRequests()).isZero();
        assertThat(orders)
                .allSatisfy(orderId -> assertThat(simulator.api().requests(orderId))
                        .as(orderId)
                        .isEqualTo(1));
        assertThat(lapse.pullerMetrics().get("lapse.puller.bulk.off").gauge().value())
                .isEqualTo(1);
        assertThat(lapse.pullerMetrics()
                        .get("lapse.puller.bulk.alone")
                        .counter()
                        .count())
                .as("orders of the refused bulk requests")
                .isGreaterThan(0);
    }

    @Test
    void bulkRequestsMeetAnOutageAsSinglePullsDoAndEveryOrderIsAnsweredOnceUpstreamIsBack() {
        start(Map.of(
                "upstream.bulk-path", BULK_PATH,
                "upstream.bulk-size", "50",
                "upstream.rate-limit", "1000",
                "upstream.circuit-open", "1s"));
        simulator.api().serveBulk(BULK_PATH);
        List<String> orders = simulator.fleet().startMany(1_000, "outage-");
        long backAt = System.currentTimeMillis() + 5_000;
        simulator.api().outage(Outage.of(Duration.ofSeconds(5), Outage.Kind.ERRORS));

        expire(orders);

        await().atMost(Duration.ofSeconds(60)).until(() -> resultsByOrder().size() == orders.size());
        assertThat(resultsByOrder().values())
                .allSatisfy(r -> assertThat(r).singleElement().satisfies(result -> {
                    assertThat(result.outcome()).isEqualTo(Outcome.OK);
                    assertThat(result.pulledAt()).isGreaterThanOrEqualTo(backAt);
                }));
        assertThat(lapse.pullerMetrics()
                        .find("lapse.puller.circuit.transitions")
                        .tag("to", "open")
                        .counter())
                .as("the bulk requests upstream did not answer opened the circuit")
                .isNotNull();
        assertThat(simulator.api().bulkRequests()).isPositive();
        assertThat(lapse.pullerMetrics().get("lapse.puller.bulk.off").gauge().value())
                .as("an outage does not turn bulk requests off")
                .isZero();
    }
}
