/**
 * One soak's settings ({@link io.lapse.faults.soak.settings.SoakOptions}) and what it may break under full load
 * ({@link io.lapse.faults.soak.settings.SoakFault}). It imports {@code .load} (the cohort plan) and {@code .judge} (the
 * window the fleet-events verdict allows) only.
 */
package io.lapse.faults.soak.settings;
