/**
 * The settings of a fault-suite run: its workload and yardsticks ({@link io.lapse.faults.settings.SuiteSettings}). It
 * imports no other package of the suite, so that {@code lab} and {@code workload} read them without depending on
 * {@code scenario}, which depends on both.
 */
package io.lapse.faults.settings;
