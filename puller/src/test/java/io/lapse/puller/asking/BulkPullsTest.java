package io.lapse.puller.asking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Bulk requests: an outcome per expiry, what the answer leaves out pulled alone, the orders of a request upstream did
 * not answer left to wait, and bulk requests off for a while once upstream refuses one.
 */
class BulkPullsTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final UpstreamMetrics metrics = new UpstreamMetrics(registry);
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<List<String>> asked = new ArrayList<>();

    private static Pull expiry(String orderId, int attempt) {
        return new Pull(
                new TimerExpired(orderId, 90_000L * attempt, 0, attempt, 1, TimerExpired.Source.TIMER, false), 0);
    }

    private BulkPulls answering(UpstreamBulk.Reply reply) {
        return new BulkPulls(
                pulls -> {
                    asked.add(pulls.stream().map(Pull::orderId).toList());
                    return reply;
                },
                3,
                "http://upstream/bulk",
                metrics,
                nanos::get);
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    @Test
    void eachExpiryGetsItsOrdersAnswerAndAnOrderAskedTwiceIsAskedOnce() {
        PullOutcome ok = PullOutcome.ok(new StatusPush("o-1", "CHARGING", 5));
        BulkPulls bulk = answering(UpstreamBulk.Reply.answered(Map.of("o-1", ok, "o-2", PullOutcome.notFound())));

        List<PullOutcome> outcomes = bulk.pull(List.of(expiry("o-1", 1), expiry("o-2", 1), expiry("o-1", 2)));

        assertThat(asked).containsExactly(List.of("o-1", "o-2"));
        assertThat(outcomes).containsExactly(ok, PullOutcome.notFound(), ok);
        assertThat(bulk.most()).isEqualTo(3);
    }

    @Test
    void anOrderTheAnswerDoesNotVouchForIsLeftToBePulledAlone() {
        BulkPulls bulk = answering(UpstreamBulk.Reply.answered(Map.of("o-1", PullOutcome.notFound())));

        List<PullOutcome> outcomes = bulk.pull(List.of(expiry("o-1", 1), expiry("o-2", 1)));

        assertThat(outcomes).containsExactly(PullOutcome.notFound(), null);
        assertThat(registry.get("lapse.puller.bulk.alone").counter().count()).isEqualTo(1);
        assertThat(bulk.most()).as("still on").isEqualTo(3);
    }

    @Test
    void aRequestUpstreamDidNotAnswerLeavesEveryOrderToWaitRatherThanBeAskedAloneAndBulkRequestsOn() {
        BulkPulls bulk = answering(UpstreamBulk.Reply.unanswered("upstream answered 503 (2 requests)"));

        assertThat(bulk.pull(List.of(expiry("o-1", 1), expiry("o-2", 1))))
                .containsExactly(
                        PullOutcome.unanswered("upstream answered 503 (2 requests)"),
                        PullOutcome.unanswered("upstream answered 503 (2 requests)"));
        assertThat(bulk.most()).isEqualTo(3);
        assertThat(gauge("lapse.puller.bulk.off")).isZero();
    }

    @Test
    void aRefusedRequestTurnsBulkRequestsOffForAWhileAndEveryOrderGoesAlone() {
        BulkPulls bulk = answering(UpstreamBulk.Reply.refused("answered 404"));

        assertThat(bulk.pull(List.of(expiry("o-1", 1), expiry("o-2", 1)))).containsExactly(null, null);

        assertThat(bulk.most()).isEqualTo(1);
        assertThat(gauge("lapse.puller.bulk.off")).isEqualTo(1);
        nanos.addAndGet(BulkPulls.OFF_FOR.toNanos() - 1);
        assertThat(bulk.most()).isEqualTo(1);
        nanos.addAndGet(1);
        assertThat(bulk.most()).as("tried again after the while").isEqualTo(3);
        assertThat(gauge("lapse.puller.bulk.off")).isZero();
    }

    private BulkPulls throwing(Exception thrown) {
        return new BulkPulls(
                pulls -> {
                    if (thrown instanceof InterruptedException interrupted) {
                        throw interrupted;
                    }
                    throw (RuntimeException) thrown;
                },
                3,
                "http://upstream/bulk",
                metrics,
                nanos::get);
    }

    @Test
    void aPullerErrorLeavesEveryOrderToWait() {
        BulkPulls bulk = throwing(new IllegalStateException("bug"));

        assertThat(bulk.pull(List.of(expiry("o-1", 1), expiry("o-2", 1))))
                .allSatisfy(outcome -> assertThat(outcome.kind()).isEqualTo(PullOutcome.Kind.UNANSWERED));
    }

    @Test
    void anInterruptedRequestIsAbandoned() {
        BulkPulls bulk = throwing(new InterruptedException("closing"));

        assertThatThrownBy(() -> bulk.pull(List.of(expiry("o-1", 1), expiry("o-2", 1))))
                .isInstanceOf(CancellationException.class);
        assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
    }

    @Test
    void withoutABulkPathEveryPullGoesAlone() {
        assertThat(BulkPulls.never(metrics).most()).isEqualTo(1);
    }
}
