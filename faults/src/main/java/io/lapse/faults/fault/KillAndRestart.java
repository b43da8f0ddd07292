package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;

/** kill -9 of a service's process, and the same process started again a little later, as a supervisor would. */
public record KillAndRestart(Role service, Duration down) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        LapseProcess process = lab.generation().services().first(service);
        process.kill();
        Waiting.sleep(down);
        process.launch();
        return FaultReport.recoveredAt(System.currentTimeMillis());
    }
}
