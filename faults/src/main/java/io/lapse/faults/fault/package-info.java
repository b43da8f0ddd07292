/**
 * The faults the suite injects into the running pipeline, one class each (freezing or killing a service, stopping
 * the broker or Redis, an upstream outage, a fleet-wide silence, a fast clock, poison records), behind
 * {@link io.lapse.faults.fault.Fault}. A new fault implements it here and is named in the scenario package's
 * {@code Scenarios}.
 */
package io.lapse.faults.fault;
