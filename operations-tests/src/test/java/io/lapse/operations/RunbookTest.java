package io.lapse.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lapse.event.JsonCodec;
import io.lapse.event.PullResult;
import io.lapse.event.TimerExpired;
import io.lapse.ingest.IngestService;
import io.lapse.simulator.UpstreamSimulator;
import io.lapse.store.timers.OrderView;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * docs/runbook.md, followed literally: each section's commands in its order, with every service running throughout
 * (the puller that lived through the refusals is the one that pulls again), the output compared with what the runbook
 * prints, and the outcome checked where the user sees it: upstream's calls, billing's results, orders fired or not.
 * The refusals: upstream refuses four orders that went silent, each its own way, so every pull of them fails and is
 * dead-lettered and the timer gives them up; three of those orders finished meanwhile (their final push lost) and
 * need one pull each to bill their end, one pushed again and needs none.
 */
@ExtendWith(RigPerClass.class)
@RigSettings({
    "topics.push=charging.status.push",
    "topics.pulled=charging.status.pulled",
    "topics.expired=charging.timer.expired",
    "topics.dlq=charging.status.dlq",
    "topics.timer-shards=lapse.timer.shards",
    "redis.key-prefix=lapse",
    "timer.group-id=lapse-timer",
    "ingest.group-id=lapse-ingest",
    "puller.group-id=lapse-puller",
    "compensator.application-id=lapse-compensator",
    "timer.max-attempts=2",
    "upstream.max-attempts=1",
    "upstream.retry-backoff=10ms"
})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("slow")
class RunbookTest {

    private static final Duration PUSH_INTERVAL = Duration.ofMillis(500);
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final int LIVE_ORDERS = 20;

    private static OnCallRig rig;
    private static UpstreamSimulator upstream;
    private static IngestService ingest;
    private static List<String> live;

    @BeforeAll
    static void startEveryService(OnCallRig given) {
        rig = given;
        rig.metricsUrl();
        upstream = rig.startUpstream(PUSH_INTERVAL);
        ingest = rig.startIngest();
        rig.startTimer();
        rig.startPuller(upstream);
        live = upstream.fleet().startMany(LIVE_ORDERS, "order-");
        awaitWatched(live);
        ordersFinishedSilently();
    }

    /**
     * Two orders finish while silent (their final pushes lost) and are pulled, as in any deployment that has run a
     * while: the timers have fired and the puller has committed before the first section, so what status shows there
     * cannot depend on whether a live order also fired while a loaded machine held its pushes back past the ttl.
     */
    private static void ordersFinishedSilently() {
        List<String> finished = upstream.fleet().startMany(2, "order-");
        awaitWatched(finished);
        finished.forEach(upstream.fleet()::silence);
        finished.forEach(upstream.fleet()::finish);
        await().atMost(LIMIT)
                .until(() -> finished.stream().allMatch(order -> view(order).phase() == OrderView.Phase.ENDED));
    }

    private static Transcript transcript() {
        return new Transcript(rig::lapse);
    }

    @Test
    @Order(1)
    void afterAPipelineOutageNothingFiredAndNothingNeedsReplaying() {
        Transcript runbook = transcript();
        Instant stopped = Instant.now();
        ingest.close();
        long heldAt = rig.watermarks.low().join().orElseThrow();

        // both signs of a stopped ingest, so that the transcript does not depend on which came first
        runbook.runUntil(outcome -> outcome.out().contains("are overdue"), "status", "--max-watermark-age", "5s");
        runbook.run("watermarks");
        ingest = rig.startIngest();
        runbook.runUntil(outcome -> outcome.exit() == 0, "status");

        RunbookDocument.section("After a pipeline outage", runbook);
        assertThat(expiriesSince(stopped))
                .as("no live order fired: the watermark held back every deadline it had not passed when ingest "
                        + "stopped")
                .allSatisfy(expiry -> assertThat(expiry.deadline()).isLessThanOrEqualTo(heldAt));
    }

    @Test
    @Order(2)
    void afterUpstreamRefusedOrdersOneReplayPullsEachSilentOrderOnceAndASecondRunPullsNone() {
        Refused refused = refusedOrders();
        Map<String, Long> before = upstreamCalls(refused);
        String[] replay = {"replay", "--topic", "charging.timer.expired", "--from", refused.from(), "--to", refused.to()
        };
        Transcript runbook = transcript();

        runbook.run("status");
        runbook.run("inspect", refused.finished().get(0));
        runbook.run(with(replay, "--dry-run"));
        Lapse.Outcome first = runbook.run(replay);
        awaitBilled(refused);
        Lapse.Outcome second = runbook.run(replay);
        runbook.run("inspect", refused.finished().get(0), "--last", "3");

        RunbookDocument.section("After upstream refused orders", runbook);
        assertThat(first.out()).contains("4 orders expired, 1 had a status since; published 3");
        assertThat(second.out()).contains("published 0");
        assertEachSilentOrderWasPulledOnce(refused, before);
    }

    @Test
    @Order(3)
    void afterUpstreamRefusedOrdersOneRedrivePullsEachSilentOrderOnceAndASecondRunPullsNone() {
        Refused refused = refusedOrders();
        Map<String, Long> before = upstreamCalls(refused);
        String[] redrive = {"dlq", "redrive", "--since", refused.from(), "--reason", "pull FAILED"};
        Transcript runbook = transcript();

        runbook.run("dlq", "list", "--since", refused.from(), "--reason", "pull FAILED");
        runbook.run(with(redrive, "--dry-run"));
        Lapse.Outcome first = runbook.run(redrive);
        awaitBilled(refused);
        Lapse.Outcome second = runbook.run(redrive);

        RunbookDocument.section("Failed pulls in the dead-letter topic", runbook);
        assertThat(first.out())
                .contains("redrove 3, 1 of an order with a status since, 4 superseded by newer expiries");
        assertThat(second.out()).contains("redrove 0");
        assertEachSilentOrderWasPulledOnce(refused, before);
    }

    @Test
    @Order(4)
    void aPushNoServiceCanReadIsDeadLetteredAndRedrivenOnce() {
        String since = aSecondAgo().toString();
        String push = rig.config.topics().push();
        long now = System.currentTimeMillis();
        rig.send(
                push, "order-17", utf8("{\"orderId\":\"order-17\",\"status\":\"CHARGING\",\"ts\":\"yesterday\"}"), now);
        rig.send(push, "order-18", utf8("order-18 CHARGING"), now);
        String[] redrive = {"dlq", "redrive", "--since", since, "--reason", "StatusPush (at ts)"};
        await().atMost(LIMIT)
                .until(() -> rig.lapse("dlq", "list", "--since", since).out().contains("2 dead letters"));
        Transcript runbook = transcript();

        runbook.run("dlq", "list", "--since", since);
        runbook.run(with(redrive, "--dry-run"));
        runbook.run(redrive);
        await().atMost(LIMIT)
                .until(() -> rig.lapse("dlq", "list", "--since", since).out().contains("3 dead letters"));
        runbook.run(redrive);

        RunbookDocument.section("A record in the DLQ", runbook);
        long afterPoison = System.currentTimeMillis();
        await().atMost(LIMIT)
                .alias("ingest goes on after the poison")
                .until(() -> rig.store
                                .inspect(List.of("order-17"))
                                .join()
                                .get("order-17")
                                .lastSeen()
                                .orElse(0)
                        > afterPoison);
    }

    /** Upstream got one more call per finished order and none for the one that pushed; billing got one result each. */
    private static void assertEachSilentOrderWasPulledOnce(Refused refused, Map<String, Long> callsBefore) {
        assertThat(upstreamCalls(refused))
                .as("one call per silent order, none for the order that pushed again")
                .isEqualTo(plusOneFor(callsBefore, refused.finished()));
        assertThat(refused.finished())
                .allSatisfy(order -> assertThat(okPulls(order))
                        .as("billing got one result for " + order)
                        .hasSize(1));
    }

    /** Orders that went silent while upstream refused them: the finished ones, and one that pushes again since. */
    private record Refused(String from, String to, List<String> finished, String pushedAgain) {}

    /**
     * Upstream refuses four new orders while they go silent, each its own way (a fault in their data on its side: the
     * same refusal for most orders asked at once would be upstream-wide, an refused that fails no pull), until each has
     * had its final pull FAILED.
     */
    private static Refused refusedOrders() {
        List<String> orders = upstream.fleet().startMany(4, "order-");
        awaitWatched(orders);
        Instant from = aSecondAgo();
        upstream.api().refuse(Map.of(orders.get(0), 422, orders.get(1), 400, orders.get(2), 410, orders.get(3), 409));
        orders.forEach(upstream.fleet()::silence);
        List<String> finished = orders.subList(0, 3);
        finished.forEach(upstream.fleet()::finish);
        await().atMost(LIMIT).until(() -> orders.stream().allMatch(order -> finalPullFailed(order, from)));
        upstream.api().refuse(Map.of());
        Instant to = aSecondAgo().plusSeconds(2);
        String pushedAgain = orders.get(3);
        long silentSince = view(pushedAgain).lastSeen().orElseThrow();
        upstream.fleet().resume(pushedAgain);
        await().atMost(LIMIT).until(() -> view(pushedAgain).hasNewsSince(silentSince));
        return new Refused(from.toString(), to.toString(), finished, pushedAgain);
    }

    /** A time as on-call types it: whole seconds, a little before now. */
    private static Instant aSecondAgo() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);
    }

    private static void awaitWatched(List<String> orders) {
        await().atMost(LIMIT)
                .until(() -> rig.store.inspect(orders).join().values().stream().allMatch(OrderView::isWatched));
    }

    /** Billing has the end of each finished order, and ingest has applied it. */
    private static void awaitBilled(Refused refused) {
        await().atMost(LIMIT)
                .until(() -> refused.finished().stream()
                        .allMatch(order -> !okPulls(order).isEmpty()));
        await().atMost(LIMIT)
                .until(() -> refused.finished().stream()
                        .allMatch(order -> view(order).phase() == OrderView.Phase.ENDED));
    }

    private static OrderView view(String orderId) {
        return rig.store.inspect(List.of(orderId)).join().get(orderId);
    }

    private static boolean finalPullFailed(String orderId, Instant since) {
        return pulls(orderId).stream()
                .anyMatch(pull -> pull.pulledAt() >= since.toEpochMilli()
                        && pull.outcome() == PullResult.Outcome.FAILED
                        && pull.expiry().attempt() == 2);
    }

    private static List<PullResult> okPulls(String orderId) {
        return pulls(orderId).stream()
                .filter(pull -> pull.outcome() == PullResult.Outcome.OK)
                .toList();
    }

    private static List<PullResult> pulls(String orderId) {
        return rig.records(rig.config.topics().pulled()).stream()
                .map(record -> JsonCodec.PULL_RESULT.decode(record.value()))
                .filter(pull -> pull.orderId().equals(orderId))
                .toList();
    }

    private static List<TimerExpired> expiriesSince(Instant since) {
        return rig.records(rig.config.topics().expired()).stream()
                .map(record -> JsonCodec.TIMER_EXPIRED.decode(record.value()))
                .filter(expiry -> expiry.firedAt() >= since.toEpochMilli())
                .toList();
    }

    private static Map<String, Long> upstreamCalls(Refused refused) {
        Map<String, Long> calls = new HashMap<>();
        refused.finished().forEach(order -> calls.put(order, upstream.api().requests(order)));
        calls.put(refused.pushedAgain(), upstream.api().requests(refused.pushedAgain()));
        return calls;
    }

    private static Map<String, Long> plusOneFor(Map<String, Long> calls, List<String> orders) {
        Map<String, Long> expected = new HashMap<>(calls);
        orders.forEach(order -> expected.merge(order, 1L, Long::sum));
        return expected;
    }

    private static String[] with(String[] args, String more) {
        String[] extended = Arrays.copyOf(args, args.length + 1);
        extended[args.length] = more;
        return extended;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
