package io.lapse.faults.soak.fault;

import io.lapse.bench.harness.ExpiryCollector;
import io.lapse.bench.storm.FalseExpiries;
import io.lapse.bench.storm.StormBenchOptions;
import io.lapse.bench.storm.StormLatenessParts;
import io.lapse.bench.storm.StormResult;
import io.lapse.bench.storm.StormRun;
import io.lapse.bench.storm.StormSampler;
import io.lapse.event.FleetEvent;
import io.lapse.event.PullResult;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The soak's storm in the storm benchmark's figures, from what the run read back: the expired, pulled and
 * fleet-events topics, the pushes after the resume and the upstream's count of calls. Unlike the benchmark's fleet, the
 * soak's churns: the storm's orders are those with an expiry while the pushes were stopped, and the orders that
 * finished meanwhile are those whose pull answered a terminal status.
 *
 * @param silenceStart when every push stopped, epoch ms
 * @param resumed      when the pushes resumed, epoch ms
 * @param terminal     the statuses that end a watch, upper case
 */
record StormTally(long silenceStart, long resumed, Set<String> terminal) {

    StormTally {
        if (resumed < silenceStart) {
            throw new IllegalArgumentException("the pushes resumed before they stopped");
        }
        terminal = Set.copyOf(terminal);
    }

    /**
     * @param pushesFrom   orderId → the sorted ts of its pushes from the epoch ms given on
     * @param upstreamCalls calls upstream answered from the storm's start to now
     * @param skippedAlreadyPulled the puller's count of expiries skipped because the order was pulled after them
     * @param plot         where the backlog and the drain are drawn
     */
    StormOutcome tally(
            StormBenchOptions bench,
            List<ExpiryCollector.Expiry> expiries,
            List<PullResult> pulls,
            Map<String, Long> firstOkSinceStart,
            List<FleetEvent> events,
            Function<Long, Map<String, long[]>> pushesFrom,
            long upstreamCalls,
            long skippedAlreadyPulled,
            StormSampler sampler,
            Path plot) {
        long ttl = bench.ttl().toMillis();
        List<ExpiryCollector.Expiry> inStorm = StormRun.firedBetween(expiries, silenceStart, resumed);
        Set<String> stormOrders =
                inStorm.stream().map(ExpiryCollector.Expiry::orderId).collect(Collectors.toSet());
        long fleetsFirst = StormRun.fleetsFirstAppended(inStorm, silenceStart, bench.ttl(), bench.pushInterval());
        List<Long> firstPulls = firstOkSinceStart.entrySet().stream()
                .filter(e -> stormOrders.contains(e.getKey()))
                .map(Map.Entry::getValue)
                .toList();
        long lastFirstPull =
                firstPulls.stream().mapToLong(Long::longValue).max().orElse(fleetsFirst);
        List<FalseExpiries.Fired> afterResume = expiries.stream()
                .filter(e -> e.firedAt() >= resumed)
                .map(e -> new FalseExpiries.Fired(e.orderId(), e.deadline()))
                .toList();
        Map<String, Long> terminalAt = terminalAnswers(pulls);
        StormResult figures = new StormResult(
                // an order silent before the storm may have finished unseen and been pulled in it: one more order;
                // withOrders sizes the benchmark's rate limit to the orders, the soak's stays
                bench.withOrders(Math.max(bench.orders(), stormOrders.size())).withRateLimit(bench.rateLimit()),
                StormRun.rates(inStorm, ttl),
                StormRun.lateness(inStorm),
                StormLatenessParts.of(inStorm),
                StormRun.calls(pulls, silenceStart, ttl),
                upstreamCalls,
                firstPulls.size(),
                lastFirstPull - fleetsFirst,
                StormRun.laterCallsBefore(pulls, silenceStart, lastFirstPull),
                sampler.peakBacklog(),
                afterResume.size(),
                afterResume.isEmpty()
                        ? 0
                        : FalseExpiries.count(
                                afterResume, pushesFrom.apply(StormRun.firstAfter(expiries, resumed) - ttl), ttl),
                StormRun.firstAt(events, FleetEvent.Kind.SILENCE_STARTED, silenceStart),
                StormRun.firstAt(events, FleetEvent.Kind.SILENCE_ENDED, resumed),
                pulls.stream()
                        .filter(p -> p.outcome() == PullResult.Outcome.SKIPPED && p.pulledAt() >= silenceStart)
                        .count(),
                skippedAlreadyPulled,
                sampler.samples());
        return new StormOutcome(
                figures,
                count(events, FleetEvent.Kind.SILENCE_STARTED),
                count(events, FleetEvent.Kind.SILENCE_ENDED),
                stormOrders.size(),
                terminalAt.size(),
                pulledAfter(pulls, terminalAt),
                plot);
    }

    /** orderId → pulledAt of the first pull from the storm's start on that answered a terminal status. */
    private Map<String, Long> terminalAnswers(List<PullResult> pulls) {
        Map<String, Long> at = new HashMap<>();
        for (PullResult pull : pulls) {
            if (pull.outcome() == PullResult.Outcome.OK
                    && pull.pulledAt() >= silenceStart
                    && terminal.contains(pull.status().status().toUpperCase(Locale.ROOT))) {
                at.merge(pull.orderId(), pull.pulledAt(), Math::min);
            }
        }
        return at;
    }

    /** Orders with a pull other than SKIPPED after the terminal answer. */
    private static int pulledAfter(List<PullResult> pulls, Map<String, Long> terminalAt) {
        Set<String> again = new HashSet<>();
        for (PullResult pull : pulls) {
            Long end = terminalAt.get(pull.orderId());
            if (end != null && pull.outcome() != PullResult.Outcome.SKIPPED && pull.pulledAt() > end) {
                again.add(pull.orderId());
            }
        }
        return again.size();
    }

    private static int count(List<FleetEvent> events, FleetEvent.Kind kind) {
        return (int) events.stream().filter(e -> e.event() == kind).count();
    }
}
