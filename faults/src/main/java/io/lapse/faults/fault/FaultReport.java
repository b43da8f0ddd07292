package io.lapse.faults.fault;

import io.lapse.faults.observe.RecordRef;
import java.util.List;
import java.util.Set;

/**
 * What a fault did.
 *
 * @param recoveredAt   from when on firing may be expected again (epoch ms): the end of an outage (process restarted or
 *                      thawed, a dead member's session over, broker or Redis back), the start of a fault firing must
 *                      not notice (poison, upstream)
 * @param poison        where Kafka put the poison it acknowledged: exactly these must become dead letters
 * @param poisonRefused poison records Kafka refused, which nobody can be expected to dead-letter
 * @param failingOrders orders whose pulls the fault made upstream fail: their dead letters are expected, and checked
 *                      by the fault itself
 * @param failures      what the fault itself saw go wrong while it lasted (each fails the scenario)
 */
public record FaultReport(
        long recoveredAt, List<RecordRef> poison, int poisonRefused, Set<String> failingOrders, List<String> failures) {

    public FaultReport {
        poison = List.copyOf(poison);
        failingOrders = Set.copyOf(failingOrders);
        failures = List.copyOf(failures);
    }

    public static FaultReport recoveredAt(long epochMillis) {
        return new FaultReport(epochMillis, List.of(), 0, Set.of(), List.of());
    }

    FaultReport withFailingOrders(Set<String> orders, List<String> failures) {
        return new FaultReport(recoveredAt, poison, poisonRefused, orders, failures);
    }
}
