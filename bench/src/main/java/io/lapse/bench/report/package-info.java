/**
 * The Markdown report and what every benchmark's report shares: where and when it ran, numbers formatted alike,
 * Markdown tables, XChart plots, and measured rates.
 */
package io.lapse.bench.report;
