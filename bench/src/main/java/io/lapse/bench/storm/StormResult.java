package io.lapse.bench.storm;

import io.lapse.bench.lateness.Lateness;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one storm run measured; every figure comes from the run's topics, the simulated upstream or the puller's
 * gauges.
 *
 * @param options              what ran
 * @param rates                the timer's expiries per second in the storm
 * @param lateness             deadline to Kafka's append time of each silent order's first expiry in the storm
 * @param latenessParts        where that lateness went: the timer's claim, first expiries against re-armed ones
 * @param calls                calls per order per ttl window, counted from the pulled topic
 * @param upstreamCalls        calls upstream served to the fleet from the silence's start to the run's end
 * @param pulledOrders         silent orders with an OK pull after the silence began, of {@code options.orders()}
 * @param lastPulledMs         from the fleet's first expiry ({@link StormRun#fleetsFirstAppended}) to the last silent
 *                             order's first pull
 * @param laterCallsBeforeLastPulled calls from the silence's start up to that pull that were not their order's first
 *                             since the silence: a second round overtaking orders not yet pulled would show here
 * @param peakBacklog          the puller's highest backlog gauge over the run, -1 if it never reported one
 * @param expiriesAfterResume  expiries fired once the pushes resumed
 * @param falseAfterResume     of those, the ones whose order had pushed in the ttl up to the deadline
 * @param silenceStartedMs     SILENCE_STARTED's {@code at}, from the moment the pushes stopped; empty if none came
 * @param silenceEndedMs       SILENCE_ENDED's {@code at}, from the moment the pushes resumed; empty if none came
 * @param skipped              SKIPPED results in the pulled topic from the silence's start on (no call needed)
 * @param skippedAlreadyPulled of all SKIPPED, those the puller counted as pulled at or after their deadline
 * @param samples              the backlog and the calls, once a second
 */
public record StormResult(
        StormBenchOptions options,
        ExpiryRates rates,
        Lateness lateness,
        StormLatenessParts latenessParts,
        CallsPerTtl calls,
        long upstreamCalls,
        int pulledOrders,
        long lastPulledMs,
        long laterCallsBeforeLastPulled,
        long peakBacklog,
        long expiriesAfterResume,
        long falseAfterResume,
        OptionalLong silenceStartedMs,
        OptionalLong silenceEndedMs,
        long skipped,
        long skippedAlreadyPulled,
        List<StormSampler.Sample> samples) {

    public StormResult {
        samples = List.copyOf(samples);
        if (pulledOrders < 0 || pulledOrders > options.orders() || upstreamCalls < 0) {
            throw new IllegalArgumentException(
                    "pulled " + pulledOrders + " of " + options.orders() + " orders with " + upstreamCalls + " calls");
        }
        if (laterCallsBeforeLastPulled < 0) {
            throw new IllegalArgumentException("negative count of later calls: " + laterCallsBeforeLastPulled);
        }
        if (falseAfterResume < 0 || falseAfterResume > expiriesAfterResume) {
            throw new IllegalArgumentException(falseAfterResume + " false of " + expiriesAfterResume + " expiries");
        }
    }

    /** The goal of the timer: a whole fleet's deadlines, which come due within one push interval, per second. */
    public double goalExpiriesPerSecond() {
        return options.orders() * 1000.0 / options.pushInterval().toMillis();
    }

    /** Every silent order's first expiry within the storm's first ttl. */
    public double goalFirstTtlPerSecond() {
        return options.orders() * 1000.0 / options.ttl().toMillis();
    }

    /** The goal of the drain: one pull per silent order at the rate limit, plus 10 s. */
    public long goalLastPulledMs() {
        return options.orders() * 1000L / options.rateLimit() + 10_000;
    }

    /** Calls upstream served ÷ orders called, per ttl window. */
    public double callsPerOrder() {
        return calls.ratio(upstreamCalls);
    }

    public boolean everyOrderPulled() {
        return pulledOrders == options.orders();
    }
}
