/**
 * What ingest shares about the fleet falling silent: the fleet silence now on and who judges it
 * ({@code FleetSilence}), the cohort silences now on ({@code CohortSilences}) and the pushes every instance counted
 * per cohort ({@code CohortTallies}, {@code CohortSpan}).
 */
package io.lapse.store.fleet;
