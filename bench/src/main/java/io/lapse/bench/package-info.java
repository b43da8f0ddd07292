/**
 * {@code lapse bench}: {@link io.lapse.bench.Benchmark} runs the ingest throughput and the fire lateness benchmarks on
 * the devstack and writes their report ({@link io.lapse.bench.BenchReport}, from the sections of the two packages).
 * Every other benchmark has a package of its own beside them ({@code puller}, {@code storm}, {@code inspect},
 * {@code compensator}, {@code peers}, and the soak in the faults module); a new one gets one too, with a subcommand of
 * devtools' {@code BenchCommand}, and reuses {@code harness}, {@code load} and {@code report}.
 */
package io.lapse.bench;
