/**
 * The soak's load generator: {@link io.lapse.faults.soak.load.SoakLoad}, the main of a process of its own, pushing a
 * churning fleet of sessions and cohorts ({@link io.lapse.faults.soak.load.LoadPlan},
 * {@link io.lapse.faults.soak.load.SessionChurn}), and {@link io.lapse.faults.soak.load.LoadProcess}, which starts it
 * and hands what it says about silent and finished orders to the judge. It imports {@code .judge} only.
 */
package io.lapse.faults.soak.load;
