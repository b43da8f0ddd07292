package io.lapse.ingest.fleet;

import io.lapse.event.CohortEvent;
import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What the cohort silence watch shows Prometheus: how many cohorts are silent and judged (numbers from the start, 0
 * while cohorts are not told), and per silent cohort about how many of its orders are silent, a gauge that exists only
 * while its silence is on, so that an alert can name the cohort.
 */
public final class CohortGauges {

    private final MeterRegistry registry;
    private volatile int silences;
    private volatile long judged;
    private final Map<String, Gauge> silentOrders = new HashMap<>();
    private final Map<String, AtomicLong> silentOrderCounts = new HashMap<>();

    /** @param unplaced pushes whose cohort found no room in ingest's tally */
    public CohortGauges(MeterRegistry registry, LongSupplier unplaced) {
        this.registry = registry;
        Gauge.builder(MetricNames.FLEET_COHORT_SILENCES, this, g -> g.silences)
                .description("Cohorts whose orders went silent together while the rest of the fleet pushes")
                .register(registry);
        Gauge.builder(MetricNames.FLEET_COHORTS_JUDGED, this, g -> g.judged)
                .description("Cohorts of at least fleet.cohort-min-orders orders, judged for silence")
                .register(registry);
        FunctionCounter.builder("lapse.fleet.cohort.pushes.unplaced", unplaced, u -> u.getAsLong())
                .description("Pushes counted for the whole fleet only: their cohort found the tally full "
                        + "(more cohort values than fleet.cohort-limit allows)")
                .register(registry);
    }

    /** Shows the silences on, by cohort, and how many cohorts are judged; called by the fleet watch's thread alone. */
    void show(Map<String, CohortEvent> on, long judgedCohorts) {
        silences = on.size();
        judged = judgedCohorts;
        silentOrders.keySet().stream()
                .filter(cohort -> !on.containsKey(cohort))
                .toList()
                .forEach(cohort -> {
                    registry.remove(silentOrders.remove(cohort));
                    silentOrderCounts.remove(cohort);
                });
        on.forEach((cohort, started) -> {
            AtomicLong count = silentOrderCounts.computeIfAbsent(cohort, c -> {
                AtomicLong value = new AtomicLong();
                silentOrders.put(
                        c,
                        Gauge.builder(MetricNames.FLEET_COHORT_SILENT_ORDERS, value, AtomicLong::get)
                                .description("About how many orders of the cohort went silent together")
                                .tag("cohort", c)
                                .register(registry));
                return value;
            });
            count.set(started.silentOrders());
        });
    }
}
