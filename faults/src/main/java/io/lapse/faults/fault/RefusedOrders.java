package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Upstream fails for good on some silent orders (500 for them alone, as for an order whose data upstream cannot
 * serve) while it answers every other order, each in 300 ms, and more orders go silent {@code later}, while the refused
 * ones sit in their final attempt. The scenario runs with {@code timer.max-attempts=2}. Whatever the circuit breaker makes of the
 * failures, every other silent order, the later ones too, must be pulled from upstream within {@code pulledWithin},
 * each asked at most twice per pull and answered once per expiry; the refused orders' pulls are parked
 * ({@code lapse_puller_held}), none FAILED (so no dead letter: a 5xx is no refusal of the order); once upstream
 * answers them again each parked pull gets its result, which the tally's "pull results lost" checks. Firing never
 * depends on upstream, so it is expected on time throughout.
 */
public record RefusedOrders(int refused, int silentLater, Duration later, Duration pulledWithin) implements Fault {

    /** What upstream answers for the refused orders: a server error, which says nothing definitive about an order. */
    static final int REFUSAL = 500;

    private static final Duration ANSWER_TAKES = Duration.ofMillis(300);

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        List<String> silent = workload.silent().stream().sorted().toList();
        Set<String> refusedOrders = Set.copyOf(silent.subList(0, refused));
        List<String> failures = new ArrayList<>();
        lab.upstream().refuse(refusedOrders, REFUSAL);
        // a refusal comes at once, an answer takes upstream a moment, as a lookup does
        lab.upstream().latency(ANSWER_TAKES);
        try {
            Waiting.sleep(later);
            List<String> silentLaterOrders = workload.all().stream()
                    .filter(id -> !workload.silent().contains(id)
                            && !workload.finished().contains(id))
                    .sorted()
                    .limit(silentLater)
                    .toList();
            Map<String, Long> before = UpstreamCalls.requests(lab, silentLaterOrders);
            silentLaterOrders.forEach(lab.fleet()::silence);
            List<String> answerable = new ArrayList<>(silent.subList(refused, silent.size()));
            answerable.addAll(silentLaterOrders);
            Observations seen = lab.generation().observations();
            Predicate<String> pulled = id -> lab.fleet().pullsServed(id) > 0;
            if (!Waiting.until(
                    () -> seen.allExpiredAndAnswered(answerable)
                            && answerable.stream().allMatch(pulled),
                    pulledWithin)) {
                failures.add(answerable.stream().filter(pulled.negate()).count() + " of " + answerable.size()
                        + " silent orders upstream answers were not pulled from it within "
                        + pulledWithin.toSeconds() + " s of the later silence, while it refused " + refused);
            }
            // the later orders' first silence: one expiry each so far, or two if a ttl passed; each asked twice at most
            UpstreamCalls.askedAgain(lab, before).forEach((id, calls) -> {
                long expiries = seen.pulls().stream()
                        .filter(pull -> pull.orderId().equals(id))
                        .count();
                if (calls > 2 * Math.max(1, expiries)) {
                    failures.add(id + " was asked " + calls + " times for " + expiries + " answered expiries");
                }
            });
            failures.addAll(UpstreamCalls.answeredTwice(seen.pulls(), workload.silent()::contains));
            LapseProcess puller = lab.generation().services().first(Role.PULLER);
            if (!Waiting.until(() -> UpstreamCalls.gauge(puller, "lapse_puller_held", "") >= refused, pulledWithin)) {
                failures.add("the puller reported " + UpstreamCalls.gauge(puller, "lapse_puller_held", "")
                        + " parked pulls, fewer than the " + refused + " orders upstream refused");
            }
        } finally {
            lab.upstream().refuse(Set.of(), REFUSAL);
            lab.upstream().latency(Duration.ZERO);
        }
        return FaultReport.recoveredAt(started).withFailingOrders(Set.of(), failures);
    }
}
