/**
 * What the suite sees of a generation: every push, expiry, pull result and dead letter read back from Kafka as it is
 * written, and the tallies that judge them (orders that fired falsely, late or never; dead letters and their cause).
 */
package io.lapse.faults.observe;
