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

/**
 * A rolling restart of the puller (SIGTERM, wait for it to stop, start it again) while one order upstream refuses for
 * good (500) waits for the answer to its final pull. The silent orders' chargers stop reporting too, so upstream
 * answers each with the status it last pushed: nothing newer, so the timer gives each order up after its final
 * attempt ({@code timer.max-attempts=2}). Once every other silent order's final expiry is answered, the puller is
 * restarted; it must then ask upstream nothing it answered before (neither its committed offsets nor anything else
 * may send it back to expiries behind the one waiting), be at work again within {@code within} (it asks for the
 * refused order again), and, once upstream answers that one, answer it: the tally's "pull results lost".
 */
public record PullerRollingRestart(int maxAttempts, Duration within) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        List<String> failures = new ArrayList<>();
        List<String> silent = workload.silent().stream().sorted().toList();
        String refused = silent.get(0);
        List<String> answered = silent.subList(1, silent.size());
        silent.forEach(lab.fleet()::lose);
        lab.upstream().refuse(Set.of(refused), RefusedOrders.REFUSAL);
        try {
            Observations seen = lab.generation().observations();
            Waiting.require(
                    () -> answered.stream()
                            .allMatch(id -> seen.pulls().stream()
                                    .anyMatch(pull -> pull.orderId().equals(id) && pull.attempt() == maxAttempts)),
                    within,
                    "the final pull of every answered silent order");
            Map<String, Long> before = UpstreamCalls.requests(lab, answered);
            long refusedBefore = lab.upstream().requests(refused);
            LapseProcess puller = lab.generation().services().first(Role.PULLER);
            puller.close();
            puller.launch();
            if (!Waiting.until(
                    () -> lab.upstream().requests(refused) > refusedBefore && puller.answers("/health/ready"),
                    within)) {
                failures.add("the restarted puller did not ask for the order waiting for upstream within "
                        + within.toSeconds() + " s");
            }
            Map<String, Long> again = UpstreamCalls.askedAgain(lab, before);
            if (!again.isEmpty()) {
                failures.add(again.size() + " of the " + answered.size()
                        + " orders answered before the restart were asked of upstream again after it: " + again);
            }
            failures.addAll(UpstreamCalls.answeredTwice(seen.pulls(), workload.silent()::contains));
        } finally {
            lab.upstream().refuse(Set.of(), RefusedOrders.REFUSAL);
        }
        return FaultReport.recoveredAt(started).withFailingOrders(Set.of(), failures);
    }
}
