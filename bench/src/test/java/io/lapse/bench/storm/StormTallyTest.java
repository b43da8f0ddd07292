package io.lapse.bench.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lapse.bench.harness.ExpiryCollector;
import io.lapse.bench.lateness.Lateness;
import io.lapse.event.PullResult;
import io.lapse.event.StatusPush;
import io.lapse.event.TimerExpired;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure parts of the storm benchmark: what it counts, and what it refuses to run. */
class StormTallyTest {

    private static final long TTL = 6_000;

    @Test
    void peakIsTheMostExpiriesInAnySlidingSecond() {
        // 3 in [1500, 2400], straddling the clock's second 2000: a per-clock-second count would see 2
        ExpiryRates rates = ExpiryRates.of(new long[] {2_400, 0, 1_500, 1_900, 9_000}, TTL);
        assertThat(rates.expiries()).isEqualTo(5);
        assertThat(rates.peakPerSecond()).isEqualTo(3);
        // the first ttl runs from the first expiry (0) to 6000: four of the five
        assertThat(rates.firstTtlPerSecond()).isEqualTo(4 / 6.0);
    }

    @Test
    void theDrainCountsFromTheFirstExpiryOfAnOrderThatWasPushingWhenThePushesStopped() {
        long silence = 100_000;
        long push = 2_000;
        List<ExpiryCollector.Expiry> inStorm = List.of(
                // silent before the storm (pulled 3 s before it): due before any order that was pushing could be
                expiry(silence - 3_000 + TTL, silence + 3_100),
                // pushed 2 s before the stop, the earliest a pushing order can have pushed: the fleet's first
                expiry(silence - push + TTL, silence + 4_200),
                expiry(silence + TTL, silence + 6_100));
        assertThat(StormRun.fleetsFirstAppended(inStorm, silence, Duration.ofMillis(TTL), Duration.ofMillis(push)))
                .isEqualTo(silence + 4_200);
        assertThat(StormRun.fleetsFirstAppended(List.of(), silence, Duration.ofMillis(TTL), Duration.ofMillis(push)))
                .isEqualTo(silence);
    }

    @Test
    void aRepeatCallCountsOnlyUpToTheLastFirstPull() {
        List<PullResult> results = List.of(
                // before the silence: not a first call since it
                ok("a", 500),
                ok("a", 1_000),
                PullResult.skipped(expiry("b"), 1_100),
                ok("b", 1_200),
                // a's second call, before c's first: counted
                ok("a", 1_500),
                ok("c", 2_000),
                // after c's, the last first pull: not counted
                ok("b", 2_500));
        assertThat(StormRun.laterCallsBefore(results, 1_000, 2_000)).isEqualTo(1);
    }

    @Test
    void noExpiriesMeansNoRate() {
        ExpiryRates rates = ExpiryRates.of(new long[0], TTL);
        assertThat(rates.peakPerSecond()).isZero();
        assertThat(rates.firstTtlPerSecond()).isZero();
    }

    @Test
    void latenessPercentilesComeFromEveryValue() {
        long[] millis = new long[1_000];
        for (int i = 0; i < millis.length; i++) {
            millis[i] = i + 1;
        }
        Lateness lateness = Lateness.of(millis);
        assertThat(lateness.count()).isEqualTo(1_000);
        assertThat(lateness.p50()).isEqualTo(500);
        assertThat(lateness.p99()).isEqualTo(990);
        assertThat(lateness.max()).isEqualTo(1_000);
    }

    @Test
    void anExpiryAppendedBeforeItsDeadlineCountsAsOnTime() {
        Lateness lateness = Lateness.of(new long[] {-50, 20});
        assertThat(lateness.p50()).isZero();
        assertThat(lateness.max()).isEqualTo(20);
    }

    @Test
    void oneCallPerOrderPerTtlIsExactlyOne() {
        // a: called at 1 s and again a ttl later; b: once. Windows [0, 6000) and [6000, 12000)
        CallsPerTtl calls = CallsPerTtl.of(List.of(call("a", 1_000), call("b", 5_999), call("a", 7_000)), 0, TTL);
        assertThat(calls.calls()).isEqualTo(3);
        assertThat(calls.orderWindows()).isEqualTo(3);
        assertThat(calls.worstWindow()).isEqualTo(1.0);
        assertThat(calls.ratio(3)).isEqualTo(1.0);
    }

    @Test
    void anOrderCalledTwiceWithinATtlRaisesItsWindow() {
        CallsPerTtl calls = CallsPerTtl.of(
                List.of(call("a", 10_100), call("a", 11_000), call("b", 10_500), call("c", 500)), 10_000, TTL);
        // the call before the start does not count; window 0 holds a twice and b once
        assertThat(calls.calls()).isEqualTo(3);
        assertThat(calls.orderWindows()).isEqualTo(2);
        assertThat(calls.worstWindow()).isEqualTo(1.5);
        // upstream's own count may be higher than the pulled topic's (a retried request is one result)
        assertThat(calls.ratio(4)).isEqualTo(2.0);
    }

    @Test
    void anExpiryIsFalseOnlyWhenItsOrderPushedInTheTtlUpToItsDeadline() {
        Map<String, long[]> pushes = Map.of("a", new long[] {1_000, 20_000}, "b", new long[] {14_000});
        List<FalseExpiries.Fired> expiries = List.of(
                // a's push at 1000 set this deadline: right
                new FalseExpiries.Fired("a", 7_000),
                // a pushed at 20000, in (16000, 22000]: false
                new FalseExpiries.Fired("a", 22_000),
                // b pushed at 14000 = deadline - ttl exactly, which is what set the deadline: right
                new FalseExpiries.Fired("b", 20_000),
                // b's push at 14000 lies in (13000, 19000]: false
                new FalseExpiries.Fired("b", 19_000),
                // c never pushed in the log
                new FalseExpiries.Fired("c", 19_000));
        assertThat(FalseExpiries.count(expiries, pushes, TTL)).isEqualTo(2);
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        StormBenchOptions full = StormBenchOptions.full();
        assertThat(full.orders()).isEqualTo(20_000);
        assertThat(full.pushInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(full.ttl()).isEqualTo(Duration.ofSeconds(90));
        assertThat(full.silence()).isEqualTo(Duration.ofMinutes(3));
        assertThat(full.rateLimit()).isEqualTo(74);
        StormBenchOptions fast = StormBenchOptions.fast();
        assertThat(fast.orders()).isEqualTo(5_000);
        assertThat(fast.ttl()).isEqualTo(Duration.ofSeconds(6));
        assertThat(fast.rateLimit()).isEqualTo(277);
        assertThat(fast.fleetWindow()).isEqualTo(Duration.ofSeconds(4));
        assertThat(fast.fleetBaseline()).isEqualTo(Duration.ofSeconds(20));
        assertThat(fast.plot()).isEqualTo(Path.of("target", "storm.png"));
    }

    @Test
    void moreOrdersKeepTheBacklogRateUnlessOneIsGiven() {
        assertThat(StormBenchOptions.fast().withOrders(1_800).rateLimit()).isEqualTo(100);
        assertThat(StormBenchOptions.fast().withRateLimit(50).withOrders(1_800).rateLimit())
                .isEqualTo(100);
        assertThat(StormBenchOptions.fast().withOrders(1_800).withRateLimit(50).rateLimit())
                .isEqualTo(50);
        assertThat(StormBenchOptions.backlogRateLimit(1, Duration.ofSeconds(90)))
                .isEqualTo(1);
    }

    @Test
    void refusesWhatCouldNotMakeAStorm() {
        StormBenchOptions fast = StormBenchOptions.fast();
        assertThatThrownBy(() -> fast.withOrders(0)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> fast.withRateLimit(0)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> fast.withSilence(Duration.ofSeconds(11)))
                .hasMessageContaining("at least twice the ttl");
        assertThatThrownBy(() -> new StormBenchOptions(
                        10,
                        Duration.ofSeconds(4),
                        Duration.ofSeconds(6),
                        Duration.ofSeconds(60),
                        5,
                        Duration.ZERO,
                        Path.of("x.png")))
                .hasMessageContaining("ttl at least twice");
        assertThatThrownBy(() -> fast.withPlot(null)).hasMessageContaining("path");
    }

    @Test
    void theCsvHoldsEverySample() {
        String csv =
                StormPlot.csv(List.of(new StormSampler.Sample(-1_000, -1, 0), new StormSampler.Sample(1_500, 42, 7)));
        assertThat(csv).isEqualTo("seconds_since_silence,backlog,upstream_calls\n-1.000,-1,0\n1.500,42,7\n");
    }

    private static ExpiryCollector.Expiry expiry(long deadline, long appendTime) {
        return new ExpiryCollector.Expiry("order-" + deadline, deadline, 1, appendTime - 10, appendTime);
    }

    private static PullResult ok(String order, long at) {
        return PullResult.ok(expiry(order), new StatusPush(order, "CHARGING", at, Map.of()), at);
    }

    private static TimerExpired expiry(String order) {
        return new TimerExpired(order, 100, 1, 1, 100, TimerExpired.Source.TIMER, false);
    }

    private static CallsPerTtl.Call call(String order, long at) {
        return new CallsPerTtl.Call(order, at);
    }
}
