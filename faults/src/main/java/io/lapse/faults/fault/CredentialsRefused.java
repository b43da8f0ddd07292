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
 * Upstream answers {@code status} (401: an expired token, as a token rotation or a gateway in front of upstream does
 * for minutes) to every request for {@code lasting}, across the silent orders' final attempts
 * ({@code timer.max-attempts=2}), then answers normally. Upstream refusing every order alike is an outage, not a
 * refusal of each: the puller must say so ({@code lapse_puller_outage{cause="credentials"}}), make no pull FAILED (the
 * tally counts any dead letter against the scenario), give no order up, and pull every silent order from upstream
 * within {@code pulledWithin} of its recovery, each expiry answered once.
 */
public record CredentialsRefused(int status, Duration lasting, Duration pulledWithin) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        List<String> failures = new ArrayList<>();
        LapseProcess puller = lab.generation().services().first(Role.PULLER);
        lab.upstream().refuse(workload.all(), status);
        boolean outageSaid;
        try {
            outageSaid = Waiting.until(
                    () -> UpstreamCalls.gauge(puller, "lapse_puller_outage", "cause=\"credentials\"") == 1, lasting);
            Waiting.untilTime(started + lasting.toMillis());
        } finally {
            lab.upstream().refuse(Set.of(), status);
        }
        if (!outageSaid) {
            failures.add("the puller did not report an outage for the credentials (lapse_puller_outage) while "
                    + "upstream answered " + status + " to every request");
        }
        Map<String, Long> atRecovery = UpstreamCalls.requests(lab, workload.silent());
        Observations seen = lab.generation().observations();
        if (!Waiting.until(
                () -> UpstreamCalls.askedAgain(lab, atRecovery).size() == atRecovery.size()
                        && workload.silent().stream().allMatch(id -> lab.fleet().pullsServed(id) > 0),
                pulledWithin)) {
            failures.add((atRecovery.size()
                            - UpstreamCalls.askedAgain(lab, atRecovery).size()) + " of "
                    + atRecovery.size() + " silent orders were not pulled within " + pulledWithin.toSeconds()
                    + " s of upstream answering again");
        }
        failures.addAll(UpstreamCalls.answeredTwice(seen.pulls(), workload.silent()::contains));
        return FaultReport.recoveredAt(started).withFailingOrders(Set.of(), failures);
    }
}
