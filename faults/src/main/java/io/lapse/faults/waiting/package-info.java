/**
 * Waiting for a condition with a deadline, and for the moments of a scenario's timeline
 * ({@link io.lapse.faults.waiting.Waiting}). It imports no other package of the suite, so that every package waits
 * the same way without depending on {@code lab}.
 */
package io.lapse.faults.waiting;
