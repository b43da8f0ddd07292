/**
 * {@code ./lapse bench peers}: one heartbeat workload (N entities re-armed every R with deadline now + T, 1 % of them
 * going silent at random moments) run against Lapse and against the designs it replaces, one after the other, each on
 * its own fresh server, so that every comparison is a ratio from one run on one machine. {@link
 * io.lapse.bench.peers.PeersBenchmark} is the entry point: it measures every size ({@code .run}) and the Kafka hop
 * ({@code .lapse}), and writes the report ({@code .report}). The imports go one way: {@code .system} at the bottom,
 * then {@code .server}, the designs ({@code .redis}, {@code .postgres}, {@code .lapse}), {@code .run}, {@code .report}
 * and this package. Development code only: the production jar never contains it.
 */
package io.lapse.bench.peers;
