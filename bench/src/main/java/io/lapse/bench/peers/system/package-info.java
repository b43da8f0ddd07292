/**
 * What every design is to the benchmark and what drives it: the {@link io.lapse.bench.peers.system.PeerSystem} a design
 * implements, the workload ({@link io.lapse.bench.peers.system.Heartbeats}, re-armed by the
 * {@link io.lapse.bench.peers.system.HeartbeatDriver}), the {@link io.lapse.bench.peers.system.Fires} a design reports
 * to, the {@link io.lapse.bench.peers.system.Loop} its pollers run on, and the
 * {@link io.lapse.bench.peers.system.LatenessParts} a design that can tell (Lapse) reports, with the watermark trace and
 * probe cost they are made of. It imports no other package of the peers benchmark.
 */
package io.lapse.bench.peers.system;
