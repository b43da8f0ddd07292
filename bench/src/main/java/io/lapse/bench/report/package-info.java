/**
 * What every benchmark's report shares: where and when it ran, numbers formatted alike ({@link
 * io.lapse.bench.report.ReportFormat}), Markdown tables, XChart plots, and measured rates. The reports themselves live
 * with their benchmarks and compose their sections from here.
 */
package io.lapse.bench.report;
