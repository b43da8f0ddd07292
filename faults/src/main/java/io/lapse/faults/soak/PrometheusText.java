package io.lapse.faults.soak;

import io.lapse.faults.lab.LapseProcess;
import io.lapse.operations.status.PrometheusText.Sample;
import java.util.List;
import java.util.function.Predicate;

/** Reads a figure from a service's /metrics page, parsed as lapse status parses it. */
final class PrometheusText {

    private PrometheusText() {}

    /** The process's /metrics page; empty when it does not answer (a frozen or restarting service). */
    static String page(LapseProcess process) {
        String answer = process.probe("/metrics");
        return answer.startsWith("200 ") ? answer.substring(4) : "";
    }

    /** The sum of every sample of the metric (all its label sets); NaN when the page has none. */
    static double sum(String page, String metric) {
        return sum(page, metric, sample -> true);
    }

    /** The sum of the samples of the metric with a label of this value, e.g. {@code full} of {@code scan="full"}. */
    static double sum(String page, String metric, String labelValue) {
        return sum(page, metric, sample -> sample.labels().containsValue(labelValue));
    }

    private static double sum(String page, String metric, Predicate<Sample> which) {
        List<Sample> samples = io.lapse.operations.status.PrometheusText.parse(page).stream()
                .filter(sample -> sample.name().equals(metric) && which.test(sample))
                .toList();
        return samples.isEmpty()
                ? Double.NaN
                : samples.stream().mapToDouble(Sample::value).sum();
    }
}
