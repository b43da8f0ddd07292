/**
 * What a soak breaks under full load: one fault amid the silent orders' deadlines
 * ({@link io.lapse.faults.soak.fault.FaultAtScale}), or every push stopped at once
 * ({@link io.lapse.faults.soak.fault.FleetSilenceStorm}, measured in the storm benchmark's figures). A new
 * {@code SoakFault} gets its case here. It imports {@code .sample}, {@code .settings}, {@code .load} and
 * {@code .judge}.
 */
package io.lapse.faults.soak.fault;
