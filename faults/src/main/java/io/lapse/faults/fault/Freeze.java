package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;

/** SIGSTOP of a service's process for a while, then SIGCONT: a long GC pause, a VM steal, a throttled container. */
public record Freeze(Role service, Duration frozen) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        LapseProcess process = lab.generation().services().first(service);
        process.freeze();
        try {
            Waiting.sleep(frozen);
        } finally {
            process.thaw();
        }
        return FaultReport.recoveredAt(System.currentTimeMillis());
    }
}
