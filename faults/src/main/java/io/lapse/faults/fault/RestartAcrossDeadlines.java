package io.lapse.faults.fault;

import io.lapse.faults.lab.Lab;
import io.lapse.faults.lab.LapseProcess;
import io.lapse.faults.lab.Role;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * kill -9 of a service's process {@code before} the silent orders' first deadline, and the same process started again
 * once the last of those deadlines has passed: everything due waits for the new process, so the firing is measured
 * from its start ({@code recoveredAt}). The deadlines are those of the silent orders' newest pushes in Kafka.
 */
public record RestartAcrossDeadlines(Role service, Duration before) implements Fault {

    /** The pushes a tap reads back lag the producer by a few ms; the silent orders' last ones are in by then. */
    private static final Duration PUSHES_READ_BACK = Duration.ofMillis(500);

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long ttl = lab.settings().ttl().toMillis();
        Collection<Long> newest = lastPushes(lab, workload).values();
        long firstDeadline = newest.stream().mapToLong(ts -> ts + ttl).min().orElseThrow();
        long lastDeadline = newest.stream().mapToLong(ts -> ts + ttl).max().orElseThrow();
        LapseProcess process = lab.generation().services().first(service);
        Waiting.untilTime(firstDeadline - before.toMillis());
        process.kill();
        Waiting.untilTime(lastDeadline);
        process.launch();
        return FaultReport.recoveredAt(process.launchedAt());
    }

    private static Map<String, Long> lastPushes(Lab lab, Workload workload) {
        Waiting.sleep(PUSHES_READ_BACK);
        Map<String, Long> newest = lab.generation().observations().newestPushes(workload.silent());
        if (newest.size() != workload.silent().size()) {
            throw new IllegalStateException("only " + newest.size() + " of "
                    + workload.silent().size() + " silent orders have a push in Kafka");
        }
        return newest;
    }
}
