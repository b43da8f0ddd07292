package io.lapse.faults.workload;

import io.lapse.config.ConfigKey;
import io.lapse.config.ConfigKeys;
import io.lapse.simulator.Fleet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fault's own orders in the simulated fleet, each pushing the name of its cohort (an operator, say) in the top-level
 * field {@link #FIELD}, as an aggregating platform's producers write it; ids of their own, so that only they count in
 * the fault's verdicts. Safe to use from any thread.
 */
public final class CohortOrders {

    /** The push field naming an order's cohort: what {@code fleet.cohort-field} is set to. */
    public static final String FIELD = "operatorId";

    /** Cohorts of fewer orders are never judged: the suite's cohorts are a few dozen orders, not the default 100. */
    public static final int MIN_ORDERS = 20;

    private final Fleet fleet;
    private final String prefix;
    private final Map<String, String> cohortOf = new ConcurrentHashMap<>();

    /** @param prefix of the cohorts' names and of the orders' ids */
    public CohortOrders(Fleet fleet, String prefix) {
        this.fleet = fleet;
        this.prefix = prefix;
    }

    /**
     * Starts the cohorts, named {@code <prefix>-cpo-<n>} in the order given.
     *
     * @return their names, with their sizes
     */
    public Map<String, Integer> start(List<Integer> sizes) {
        Map<String, Integer> cohorts = new LinkedHashMap<>();
        for (int sizeOfCohort : sizes) {
            String cohort = prefix + "-cpo-" + (cohorts.size() + 1);
            cohorts.put(cohort, sizeOfCohort);
            startIn(cohort, sizeOfCohort);
        }
        return cohorts;
    }

    /** Starts orders in a cohort (which may be new). */
    public List<String> startIn(String cohort, int orders) {
        List<String> ids = fleet.startMany(orders, cohort + "-", Map.of(FIELD, cohort));
        ids.forEach(id -> cohortOf.put(id, cohort));
        return ids;
    }

    /** Every order started, whatever became of it. */
    public Set<String> all() {
        return Set.copyOf(cohortOf.keySet());
    }

    /** The orders of one cohort, whatever became of them, sorted. */
    public List<String> of(String cohort) {
        return cohortOf.entrySet().stream()
                .filter(e -> e.getValue().equals(cohort))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    /** The Lapse settings that tell these cohorts: by {@link #FIELD}, from {@link #MIN_ORDERS} orders on. */
    public static Map<ConfigKey, String> lapseSettings() {
        return Map.of(
                ConfigKeys.FLEET_COHORT_FIELD, FIELD, ConfigKeys.FLEET_COHORT_MIN_ORDERS, Integer.toString(MIN_ORDERS));
    }

    public String cohortOf(String orderId) {
        return cohortOf.get(orderId);
    }

    /** Orders of these that are still pushing. */
    public List<String> pushing(List<String> orders) {
        Set<String> pushing = Set.copyOf(fleet.ids(Fleet.Mode.PUSHING));
        return orders.stream().filter(pushing::contains).toList();
    }

    /** Finishes every order still active, so that nothing of the fault keeps Lapse busy afterwards. */
    public void end() {
        Workload.finishActive(fleet, cohortOf.keySet());
    }
}
