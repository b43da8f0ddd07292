/**
 * Ingest throughput end to end (Kafka to Redis, committed) on a backlog written beforehand, beside a plain consumer
 * and plain ZADDs measured in the same run, and its section of the report.
 */
package io.lapse.bench.throughput;
