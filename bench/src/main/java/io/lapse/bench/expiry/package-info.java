/**
 * {@code lapse bench expiry-cpu}: the timer's CPU per expiry when many orders are due at once, against a bare Kafka
 * producer publishing as many expiry records in the same run.
 */
package io.lapse.bench.expiry;
