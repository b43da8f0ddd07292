/**
 * The fault suite's runner: {@link io.lapse.faults.scenario.FaultSuite} (the entry point of {@code lapse faults}),
 * the named scenarios it can run ({@link io.lapse.faults.scenario.Scenarios}: a new fault gets its line there, and in
 * docs/development.md), running them one after another on a shared lab, and the verdicts and result table they end in.
 */
package io.lapse.faults.scenario;
