/**
 * Fire lateness and Redis memory per order for every timer mode and size: each expiry judged against the deadline of
 * the silent order's last push, with the run's worst ingest lag and watermark age, and its section of the report.
 */
package io.lapse.bench.lateness;
