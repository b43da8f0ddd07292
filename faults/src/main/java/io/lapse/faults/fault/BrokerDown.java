package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;

/** The Kafka broker stopped (controlled shutdown) for a while and started again with its data. */
public record BrokerDown(Duration down) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        lab.broker().stop();
        try {
            Waiting.sleep(down);
        } finally {
            lab.broker().start();
        }
        return FaultReport.recoveredAt(System.currentTimeMillis());
    }
}
