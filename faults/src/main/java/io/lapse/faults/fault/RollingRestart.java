package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;

/**
 * A rolling restart, as a deploy does it: each service in turn stopped (SIGTERM), waited for until it has ended,
 * started again, and the next one {@code apart} later. Nothing is lost, so nothing may be late: the firing is measured
 * from each deadline ({@code recoveredAt} is the start of the roll).
 */
public record RollingRestart(Duration apart) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        for (Role service : Role.values()) {
            LapseProcess process = lab.generation().services().first(service);
            process.stop();
            process.launch();
            Waiting.sleep(apart);
        }
        return FaultReport.recoveredAt(started);
    }
}
