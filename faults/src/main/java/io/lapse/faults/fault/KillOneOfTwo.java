package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseServices;
import io.lapse.faults.lab.Role;
import io.lapse.faults.workload.Workload;
import io.lapse.kafka.KafkaClients;
import java.time.Duration;

/**
 * Two instances of every service, as a user who outgrew one machine runs them; then kill -9 of the older instance of
 * each, for good: the survivors must take over all of their work. Their groups hand them the dead members' partitions
 * once those members' sessions end ({@link KafkaClients#MEMBER_SESSION_TIMEOUT_MS}; a stock broker allows no less
 * than 6 s), so that is when the fault is over and the grace starts.
 */
public record KillOneOfTwo(Duration startTimeout) implements Fault {

    @Override
    public void prepare(Lab lab) {
        for (Role service : Role.values()) {
            lab.generation().services().add(service);
        }
        lab.generation().requireAlive(lab, startTimeout);
    }

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        LapseServices services = lab.generation().services();
        for (Role service : Role.values()) {
            services.killForGood(services.first(service));
        }
        return FaultReport.recoveredAt(System.currentTimeMillis() + KafkaClients.MEMBER_SESSION_TIMEOUT_MS);
    }
}
