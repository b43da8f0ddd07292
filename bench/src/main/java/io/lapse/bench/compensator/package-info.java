/**
 * The compensator's benchmarks: its throughput against a plain Kafka Streams application on the same backlog
 * ({@code lapse bench compensator}), and its full rebuild and dry-run scan on a mirror of N orders
 * ({@code io.lapse.bench.compensator.CompensatorBenchmark [orders]}, not yet part of {@code lapse bench}).
 */
package io.lapse.bench.compensator;
