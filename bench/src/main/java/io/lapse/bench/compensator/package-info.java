/**
 * The compensator's full rebuild and dry-run scan on a mirror of N orders ({@code io.lapse.bench.compensator.
 * CompensatorBenchmark [orders]}, not yet part of {@code lapse bench}).
 */
package io.lapse.bench.compensator;
