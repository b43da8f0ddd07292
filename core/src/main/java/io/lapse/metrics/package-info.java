/**
 * The names of every metric Lapse publishes, in one place (as Resilience4j's {@code MetricNames}): dashboards, alert
 * rules, the status line and the benchmarks read these, so a rename shows up in every reader at compile time.
 */
package io.lapse.metrics;
