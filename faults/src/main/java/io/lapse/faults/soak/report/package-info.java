/**
 * How a soak's samples read: a line every 30 s, the summary tables, the CSV and the plots
 * ({@link io.lapse.faults.soak.report.SoakReport}), what the run cost per process and per 1 M orders
 * ({@link io.lapse.faults.soak.report.CostTable}), and whether a lag grows ({@link io.lapse.faults.soak.report.Growth}).
 * It imports {@code .sample} and {@code .settings}.
 */
package io.lapse.faults.soak.report;
