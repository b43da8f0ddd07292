package io.lapse.operations.inspect;

import io.lapse.config.CohortSettings;
import io.lapse.event.CohortEvent;
import io.lapse.event.CohortName;
import io.lapse.internal.ControlCharacters;
import io.lapse.operations.cli.Show;
import io.lapse.store.RedisConnection;
import io.lapse.store.TimerKeys;
import io.lapse.store.fleet.CohortSilences;
import java.util.Map;

/**
 * The order's cohort (fleet.cohort-field) and its silence, when one is on. The cohort is read from the order's newest
 * push only while some cohort is silent: otherwise there is nothing to tell, and the push topic is not read again.
 *
 * @param cohortOf what names a cohort
 * @param cohort   the order's cohort, or null when not looked up or not found
 * @param silence  its silence on now, or null
 */
record CohortView(String cohortOf, String cohort, CohortEvent silence) {

    /** @return null when the deployment tells no cohorts */
    static CohortView of(
            CohortSettings settings, RedisConnection redis, TimerKeys keys, OrderHistory history, long since) {
        if (!settings.enabled()) {
            return null;
        }
        Map<String, CohortEvent> silent =
                new CohortSilences(redis, keys).current().join();
        if (silent.isEmpty()) {
            return new CohortView(settings.describe(), null, null);
        }
        String cohort = history.cohort(CohortName.of(settings), since);
        return new CohortView(settings.describe(), cohort, cohort == null ? null : silent.get(cohort));
    }

    String describe(long now) {
        if (silence != null) {
            return ControlCharacters.escape(cohort) + " (" + cohortOf + ") is silent since "
                    + Show.time(silence.since())
                    + " (" + Show.ago(silence.since(), now) + "): about " + Show.count(silence.silentOrders())
                    + " of its " + Show.count(silence.orders()) + " orders went silent together while the rest of the "
                    + "fleet pushes; each fires and is pulled";
        }
        if (cohort != null) {
            return ControlCharacters.escape(cohort) + " (" + cohortOf + "), not silent";
        }
        return "not in a silent cohort of " + cohortOf;
    }
}
