package io.lapse.faults.workload;

import io.lapse.faults.settings.SuiteSettings;
import io.lapse.faults.waiting.Waiting;
import io.lapse.simulator.Fleet;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One scenario's orders in the simulated fleet, with ids of their own, so that only they count in its tally. All push
 * from {@link #start()}; at {@link #silenceAfterWarmUp} the first {@code silent} stop pushing (upstream still answers
 * for them) and the next {@code finished} finish; the rest keep pushing until {@link #end()} finishes every one.
 */
public final class Workload {

    private final Fleet fleet;
    private final String namespace;
    private final SuiteSettings settings;
    private List<String> ids = List.of();

    public Workload(Fleet fleet, String namespace, SuiteSettings settings) {
        this.fleet = fleet;
        this.namespace = namespace;
        this.settings = settings;
    }

    /** @return when they started */
    public long start() {
        long startedAt = System.currentTimeMillis();
        ids = fleet.startMany(settings.orders(), namespace + "-");
        return startedAt;
    }

    /**
     * Waits for the warm-up and until every order has a push in Kafka (a slow first send must not leave an order
     * silent that never spoke), then silences and finishes the chosen ones.
     *
     * @param allSpoke whether every one of the orders has a push in Kafka (the observations' {@code allSpoke})
     * @return when they were silenced
     */
    public long silenceAfterWarmUp(Predicate<Set<String>> allSpoke, long startedAt, Duration timeout) {
        Waiting.untilTime(startedAt + settings.warmUp().toMillis());
        Waiting.require(() -> allSpoke.test(all()), timeout, "a push in Kafka from every order of " + namespace);
        long silencedAt = System.currentTimeMillis();
        silent().forEach(fleet::silence);
        finished().forEach(fleet::finish);
        return silencedAt;
    }

    /** Finishes every order still active, so that nothing of this scenario keeps Lapse busy in the next. */
    public void end() {
        finishActive(fleet, ids);
    }

    /** Finishes those of these orders still active (pushing or silent). */
    static void finishActive(Fleet fleet, Collection<String> orders) {
        orders.stream()
                .filter(id -> fleet.current(id)
                        .map(s -> !"FINISHED".equals(s.status()))
                        .orElse(false))
                .forEach(fleet::finish);
    }

    public String namespace() {
        return namespace;
    }

    public Set<String> all() {
        return Set.copyOf(ids);
    }

    public Set<String> silent() {
        return Set.copyOf(ids.subList(0, settings.silent()));
    }

    public Set<String> finished() {
        return Set.copyOf(ids.subList(settings.silent(), settings.silent() + settings.finished()));
    }
}
