package io.lapse.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.simulator.FaultSettings;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.OrderView;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The on-call recovery after an upstream outage, end to end: ingest, timer and puller run throughout, upstream answers
 * 200 with bodies that are no status, so every pull of the orders that went silent then fails and is dead-lettered,
 * and the timer gives them up. The orders finished meanwhile (their final push lost), so one pull each brings billing
 * their end; one order pushed again and needs none. What counts is what upstream and billing see.
 */
@ExtendWith(RigPerClass.class)
@RigSettings({"timer.max-attempts=2", "upstream.max-attempts=1", "upstream.retry-backoff=10ms"})
class OutageRecoveryTest {

    private static final Duration PUSH_INTERVAL = Duration.ofMillis(500);
    private static final Duration OUTAGE_LIMIT = Duration.ofSeconds(30);

    private static OnCallRig rig;
    private static UpstreamSimulator upstream;

    @BeforeAll
    static void startEveryService(OnCallRig given) {
        rig = given;
        upstream = rig.startUpstream(PUSH_INTERVAL);
        rig.startIngest();
        rig.startTimer();
        rig.startPuller(upstream);
    }

    /** Orders that went silent in an outage: the finished ones, and one that pushes again since. */
    private record Outage(Instant from, Instant to, List<String> finished, String pushedAgain) {}

    /** Upstream answers junk while four new orders go silent, until each has had its final pull FAILED. */
    private static Outage anOutage(String prefix) {
        List<String> orders = upstream.fleet().startMany(4, prefix);
        await().atMost(OUTAGE_LIMIT)
                .until(() -> rig.store.inspect(orders).join().values().stream().allMatch(OrderView::isWatched));
        Instant from = Instant.now();
        upstream.api().faults(FaultSettings.none().withMalformedRate(1.0));
        orders.forEach(upstream.fleet()::silence);
        List<String> finished = orders.subList(0, 3);
        finished.forEach(upstream.fleet()::finish);
        await().atMost(OUTAGE_LIMIT)
                .until(() -> orders.stream().allMatch(order -> finalPullFailed(order, from.toEpochMilli())));
        upstream.api().faults(FaultSettings.none());
        Instant to = Instant.now();
        String pushedAgain = orders.get(3);
        long silentSince = rig.store
                .inspect(List.of(pushedAgain))
                .join()
                .get(pushedAgain)
                .lastSeen()
                .orElseThrow();
        upstream.fleet().resume(pushedAgain);
        await().atMost(OUTAGE_LIMIT)
                .until(() -> rig.store
                        .inspect(List.of(pushedAgain))
                        .join()
                        .get(pushedAgain)
                        .hasNewsSince(silentSince));
        return new Outage(from, to, finished, pushedAgain);
    }

    private static boolean finalPullFailed(String orderId, long since) {
        return pulls(orderId).stream()
                .anyMatch(pull -> pull.pulledAt() >= since
                        && pull.outcome() == PullResult.Outcome.FAILED
                        && pull.expiry().attempt() == 2);
    }

    private static List<PullResult> pulls(String orderId) {
        return rig.records(rig.config.topics().pulled()).stream()
                .map(record -> JsonCodec.PULL_RESULT.decode(record.value()))
                .filter(pull -> pull.orderId().equals(orderId))
                .toList();
    }

    private static boolean billedTheEnd(String orderId) {
        return pulls(orderId).stream()
                .anyMatch(pull -> pull.outcome() == PullResult.Outcome.OK
                        && pull.status().status().equals("FINISHED"));
    }

    private static Map<String, Long> upstreamCalls(Outage outage) {
        Map<String, Long> calls = new HashMap<>();
        outage.finished().forEach(order -> calls.put(order, upstream.api().requests(order)));
        calls.put(outage.pushedAgain(), upstream.api().requests(outage.pushedAgain()));
        return calls;
    }

    private static Map<String, Long> plusOneFor(Map<String, Long> calls, List<String> orders) {
        Map<String, Long> expected = new HashMap<>(calls);
        orders.forEach(order -> expected.merge(order, 1L, Long::sum));
        return expected;
    }

    @Test
    void oneReplayOfTheExpiredTopicPullsEachSilentOrderOnceAndASecondRunPullsNone() {
        Outage outage = anOutage("replayed-");
        Map<String, Long> before = upstreamCalls(outage);
        String expired = rig.config.topics().expired();

        Lapse.Outcome replay = rig.lapse(
                "replay",
                "--topic",
                expired,
                "--from",
                outage.from().toString(),
                "--to",
                outage.to().toString());

        assertThat(replay.exit()).as(replay.err()).isZero();
        assertThat(replay.out()).contains("4 orders expired, 1 had a status since; published 3");
        await().atMost(OUTAGE_LIMIT)
                .untilAsserted(() -> assertThat(outage.finished()).allMatch(OutageRecoveryTest::billedTheEnd));
        await().atMost(OUTAGE_LIMIT)
                .until(() -> rig.store.inspect(outage.finished()).join().values().stream()
                        .allMatch(view -> view.phase() == OrderView.Phase.ENDED));

        Lapse.Outcome again = rig.lapse(
                "replay",
                "--topic",
                expired,
                "--from",
                outage.from().toString(),
                "--to",
                outage.to().toString());

        assertThat(again.out()).contains("4 orders expired, 4 had a status since; published 0");
        assertThat(upstreamCalls(outage))
                .as("one call per silent order, none for the order that pushed again")
                .isEqualTo(plusOneFor(before, outage.finished()));
        assertThat(outage.finished())
                .allSatisfy(order -> assertThat(pulls(order))
                        .filteredOn(pull -> pull.outcome() == PullResult.Outcome.OK)
                        .hasSize(1));
    }

    @Test
    void oneRedriveOfTheFailedPullsPullsEachSilentOrderOnceAndASecondRunPullsNone() {
        Outage outage = anOutage("redriven-");
        Map<String, Long> before = upstreamCalls(outage);
        String since = outage.from().toString();

        Lapse.Outcome redrive = rig.lapse("dlq", "redrive", "--since", since, "--reason", "pull FAILED");

        assertThat(redrive.exit()).as(redrive.err()).isZero();
        assertThat(redrive.out())
                .contains(
                        "8 dead letters since",
                        "redrove 3, 1 of an order with a status since, 4 superseded by newer expiries");
        await().atMost(OUTAGE_LIMIT)
                .untilAsserted(() -> assertThat(outage.finished()).allMatch(OutageRecoveryTest::billedTheEnd));
        await().atMost(OUTAGE_LIMIT)
                .until(() -> rig.store.inspect(outage.finished()).join().values().stream()
                        .allMatch(view -> view.phase() == OrderView.Phase.ENDED));

        Lapse.Outcome again = rig.lapse("dlq", "redrive", "--since", since, "--reason", "pull FAILED");

        assertThat(again.out()).contains("redrove 0", "3 redriven before");
        assertThat(upstreamCalls(outage))
                .as("one call per silent order, none for the order that pushed again")
                .isEqualTo(plusOneFor(before, outage.finished()));
        assertThat(outage.finished())
                .allSatisfy(order -> assertThat(pulls(order))
                        .filteredOn(pull -> pull.outcome() == PullResult.Outcome.OK)
                        .hasSize(1));
    }
}
