/**
 * The peers benchmark's report: the Markdown tables ({@link io.lapse.bench.peers.report.PeersReport}) and the plots
 * ({@link io.lapse.bench.peers.report.PeersPlots}) of every size's results. It reads {@code .run}'s results and
 * options and {@code .system}'s lateness parts; only the root package imports it.
 */
package io.lapse.bench.peers.report;
