/**
 * {@code ./lapse bench peers}: one heartbeat workload (N entities re-armed every R with deadline now + T, 1 % of them
 * going silent at random moments) run against Lapse and against the designs it replaces, one after the other, each on
 * its own fresh redis-server, so that every comparison is a ratio from one run on one machine. Development code only:
 * the production jar never contains it.
 */
package io.lapse.bench.peers;
