/**
 * The soak's judge: every expiry against the pushes on the push topic, every silent order against its expiries
 * ({@link io.lapse.faults.soak.judge.Judge}, its {@link io.lapse.faults.soak.judge.Verdicts}), and the fleet-events
 * topic against what the load did to the silent cohort ({@link io.lapse.faults.soak.judge.FleetEventsVerdict}), from
 * the topics and what the generator says, never from Lapse's own counters. It imports no other package of the soak.
 */
package io.lapse.faults.soak.judge;
