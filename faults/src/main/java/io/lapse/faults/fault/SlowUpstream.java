package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.observe.Observations;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import io.lapse.simulator.FaultSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An overloaded upstream: every answer takes {@code median} (its 99th percentile {@code p99}), so that some come after
 * {@code upstream.timeout} (2 s). The silent orders' chargers stop reporting too, so upstream's answer carries no newer
 * status and re-arms nothing, and the scenario runs with {@code timer.max-attempts=1}: each silent order expires once and
 * is pulled once. Upstream must then be asked at most twice for each, whatever timed out (a retry after a timeout waits
 * twice as long, and no success elsewhere hides a timeout from the circuit), and every pull must be answered within
 * {@code pulledWithin}, none FAILED.
 */
public record SlowUpstream(Duration median, Duration p99, Duration pulledWithin) implements Fault {

    private static final Logger log = LoggerFactory.getLogger(SlowUpstream.class);
    private static final long MOST_CALLS_PER_PULL = 2;

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        List<String> failures = new ArrayList<>();
        Map<String, Long> before = UpstreamCalls.requests(lab, workload.silent());
        workload.silent().forEach(lab.fleet()::lose);
        lab.upstream().faults(FaultSettings.none().withLatency(median, p99));
        Observations seen = lab.generation().observations();
        try {
            if (!Waiting.until(() -> seen.allExpiredAndAnswered(workload.silent()), pulledWithin)) {
                failures.add("not every silent order was pulled within " + pulledWithin.toSeconds()
                        + " s while upstream was slow");
            }
        } finally {
            lab.upstream().faults(FaultSettings.none());
        }
        Map<String, Long> calls = UpstreamCalls.askedAgain(lab, before);
        long most = calls.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long total = calls.values().stream().mapToLong(Long::longValue).sum();
        log.info(
                "slow upstream: {} calls for the one pull of each of {} silent orders, at most {} for one",
                total,
                workload.silent().size(),
                most);
        List<String> askedMore = calls.entrySet().stream()
                .filter(order -> order.getValue() > MOST_CALLS_PER_PULL)
                .map(order -> order.getKey() + " (" + order.getValue() + ")")
                .sorted()
                .toList();
        if (!askedMore.isEmpty()) {
            failures.add(askedMore.size() + " of " + workload.silent().size() + " silent orders were asked more than "
                    + MOST_CALLS_PER_PULL + " times for their one pull: " + askedMore);
        }
        failures.addAll(UpstreamCalls.answeredTwice(seen.pulls(), workload.silent()::contains));
        return FaultReport.recoveredAt(started).withFailingOrders(Set.of(), failures);
    }
}
