/**
 * The chaos run ({@code lapse faults chaos}): a churning workload on broker, Redis with a replica and two instances of
 * every service, each its own process; a schedule of overlapping faults drawn from a seed
 * ({@link io.lapse.faults.chaos.Schedule}, carried out by {@link io.lapse.faults.chaos.Striker}); and one judge over
 * every silence of the run ({@link io.lapse.faults.chaos.Judge}). A new kind of fault gets its line in
 * {@link io.lapse.faults.chaos.FaultKind}, its weight in the schedule and its act in the striker.
 */
package io.lapse.faults.chaos;
