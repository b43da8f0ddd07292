package io.lapse.faults.soak.report;

import io.lapse.bench.report.MarkdownTable;
import io.lapse.faults.soak.sample.SoakSample;
import java.util.List;
import java.util.Locale;

/**
 * What a run cost, per process and per 1 M watched orders, over its steady part (the window {@link Growth} judges lags
 * over, leaving out the start): CPU, and the requests to the broker. A service's requests are what its own Kafka
 * clients sent; the broker's are every request it received, the load generator's and the judge's among them.
 */
final class CostTable {

    /** Issue 40's goal for the four services together, cores per 1 M orders pushing every 15 s. */
    static final double SERVICES_GOAL = 0.6;

    private static final String[] INFRASTRUCTURE = {"broker", "redis"};
    private static final String[] RIG = {"load", "judge"};

    private CostTable() {}

    static String markdown(List<SoakSample> samples, int orders) {
        List<SoakSample> steady = Growth.window(samples);
        double perMillion = 1_000_000.0 / orders;
        MarkdownTable table = new MarkdownTable(
                "process", "CPU (cores)", "CPU per 1 M orders", "broker requests/s", "requests/s per 1 M orders");
        double services = 0;
        double servicesRequests = 0;
        for (String service : SoakReport.SERVICES) {
            double cores = mean(steady, "cpu." + service);
            double requests = mean(steady, "requests." + service);
            services += cores;
            servicesRequests += requests;
            row(table, service, cores, requests, perMillion);
        }
        row(table, "**Lapse's four services**", services, servicesRequests, perMillion);
        double withInfrastructure = services;
        for (String process : INFRASTRUCTURE) {
            double cores = mean(steady, "cpu." + process);
            withInfrastructure += cores;
            row(
                    table,
                    process,
                    cores,
                    process.equals("broker") ? mean(steady, "requests.broker") : Double.NaN,
                    perMillion);
        }
        row(table, "**Lapse with broker and Redis**", withInfrastructure, Double.NaN, perMillion);
        for (String process : RIG) {
            row(table, process + " (the test's own)", mean(steady, "cpu." + process), Double.NaN, perMillion);
        }
        double goal = services * perMillion;
        return table
                + String.format(
                        Locale.ROOT,
                        "%nMeans over %.0f–%.0f s. Lapse's four services: %.2f cores per 1 M orders against a goal of"
                                + " ≤ %.1f: %s. The broker's requests are all it received (the load generator's and"
                                + " the judge's too); a service's, those its own Kafka clients sent.%n",
                        steady.isEmpty() ? 0 : steady.get(0).at(),
                        steady.isEmpty() ? 0 : steady.get(steady.size() - 1).at(),
                        goal,
                        SERVICES_GOAL,
                        goal <= SERVICES_GOAL ? "met" : "**not met**");
    }

    private static void row(MarkdownTable table, String process, double cores, double requests, double perMillion) {
        table.row(
                process,
                figure("%.2f", cores),
                figure("%.2f", cores * perMillion),
                figure("%.0f", requests),
                figure("%.0f", requests * perMillion));
    }

    private static double mean(List<SoakSample> samples, String column) {
        return SoakReport.mean(samples, s -> s.get(column));
    }

    private static String figure(String format, double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, format, value);
    }
}
