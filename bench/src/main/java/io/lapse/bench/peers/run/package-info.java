/**
 * One design at one size, and the list of designs: {@link io.lapse.bench.peers.run.Peer} names every design and how
 * to start it (a new design gets its line there), {@link io.lapse.bench.peers.run.PeerRun} drives the workload
 * through it and judges its fires, into a {@link io.lapse.bench.peers.run.PeerResult}; the run's options
 * ({@link io.lapse.bench.peers.run.PeersOptions}). It imports the designs' packages and {@code .system}, never the
 * report or the root.
 */
package io.lapse.bench.peers.run;
