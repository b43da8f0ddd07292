package io.lapse.faults.fault;

import io.lapse.faults.lab.Generation;
import io.lapse.faults.lab.Lab;
import io.lapse.faults.waiting.Waiting;
import io.lapse.faults.workload.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Poison among the pushes for a while ({@code poisonShare} of them, every {@link PoisonKind} in turn) and one bad
 * record on the expired topic. Firing must not notice: each bad record becomes one dead letter and the rest flows on.
 */
public record PoisonRecords(Duration lasting) implements Fault {

    @Override
    public FaultReport inject(Lab lab, Workload workload) {
        long started = System.currentTimeMillis();
        Generation generation = lab.generation();
        PoisonInjector injector = new PoisonInjector(
                generation.poisonProducer(),
                generation.topics().push(),
                generation.topics().expired(),
                workload.namespace() + "-poison-");
        try {
            injector.start(lab.settings().poisonPeriod());
            Waiting.sleep(lasting);
        } finally {
            injector.close();
        }
        return new FaultReport(started, injector.acknowledged(), injector.refused(), Set.of(), List.of());
    }
}
