/**
 * What Redis holds per order: a watched order's timer, and a finished order's mark, kept for
 * {@code timer.tombstone-retention} so that a replayed old push cannot revive it; and how fast the timer's pruning
 * forgets marks against the rate at which a fleet finishes orders; and the Kafka disk a status push takes. The README's
 * sizing comes from here.
 */
package io.lapse.bench.memory;
