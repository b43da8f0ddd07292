package io.lapse.faults.soak;

import io.lapse.faults.LapseProcess;

/** Reads a figure from a /metrics page in the Prometheus text format. */
final class PrometheusText {

    private PrometheusText() {}

    /** The process's /metrics page; empty when it does not answer (a frozen or restarting service). */
    static String page(LapseProcess process) {
        String answer = process.probe("/metrics");
        return answer.startsWith("200 ") ? answer.substring(4) : "";
    }

    /** The sum of every sample of the metric (all its label sets); NaN when the page has none. */
    static double sum(String page, String metric) {
        return sum(page, metric, "");
    }

    /** The sum of the samples of the metric whose labels contain {@code labels}, e.g. {@code scan="full"}. */
    static double sum(String page, String metric, String labels) {
        double sum = 0;
        boolean found = false;
        for (String line : page.split("\n")) {
            if (line.startsWith(metric) && line.length() > metric.length()) {
                char next = line.charAt(metric.length());
                boolean labelled =
                        next == '{' && line.substring(0, line.indexOf('}') + 1).contains(labels);
                if ((next == ' ' && labels.isEmpty()) || labelled) {
                    try {
                        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                        found = true;
                    } catch (NumberFormatException e) {
                        // a malformed line of a page being written: the next sample reads it whole
                    }
                }
            }
        }
        return found ? sum : Double.NaN;
    }
}
