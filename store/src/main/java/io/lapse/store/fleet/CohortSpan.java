package io.lapse.store.fleet;

import java.util.Map;
import java.util.Objects;

/**
 * The pushes read in one span of time ({@code fleet.window} / 6, starting at {@code start}), in all and per cohort:
 * as one ingest instance counted them, or summed over every instance.
 *
 * @param all     every push read, whatever its cohort, or whether it named one
 * @param cohorts the pushes of each cohort counted; a cohort without a push in the span may be left out
 */
public record CohortSpan(long start, Count all, Map<String, Count> cohorts) {

    /**
     * @param pushes   statuses that keep an order watched
     * @param finished terminal statuses: orders that stopped pushing because they finished, not because they fell
     *                 silent
     */
    public record Count(long pushes, long finished) {

        public static final Count NONE = new Count(0, 0);

        public Count plus(Count other) {
            return new Count(pushes + other.pushes, finished + other.finished);
        }

        public boolean isEmpty() {
            return pushes == 0 && finished == 0;
        }
    }

    public CohortSpan {
        Objects.requireNonNull(all, "all");
        cohorts = Map.copyOf(cohorts);
    }

    public Count of(String cohort) {
        return cohorts.getOrDefault(cohort, Count.NONE);
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }
}
