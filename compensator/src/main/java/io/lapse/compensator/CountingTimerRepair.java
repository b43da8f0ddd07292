package io.lapse.compensator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Counts what the scans hand to a repair and what it re-armed, keeping the topology free of metrics plumbing. */
final class CountingTimerRepair implements TimerRepair {

    private final TimerRepair repair;
    private final Counter scanned;
    private final Counter recovered;
    private final Counter failures;

    CountingTimerRepair(TimerRepair repair, MeterRegistry registry) {
        this.repair = repair;
        this.scanned = Counter.builder("lapse.compensator.scanned")
                .description("Active orders the compensator checked against Redis").register(registry);
        this.recovered = Counter.builder("lapse.compensator.recovered")
                .description("Orders Redis had lost that the compensator re-armed").register(registry);
        this.failures = Counter.builder("lapse.compensator.repair.failures")
                .description("Watermark reads and repairs that failed; the next scan retries them").register(registry);
    }

    @Override
    public OptionalLong watermark() {
        try {
            return repair.watermark();
        } catch (RuntimeException e) {
            failures.increment();
            throw e;
        }
    }

    @Override
    public List<String> recover(Map<String, Long> lastSeenByOrder) {
        List<String> rearmed;
        try {
            rearmed = repair.recover(lastSeenByOrder);
        } catch (RuntimeException e) {
            failures.increment();
            throw e;
        }
        scanned.increment(lastSeenByOrder.size());
        recovered.increment(rearmed.size());
        return rearmed;
    }
}
