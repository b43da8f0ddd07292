package io.lapse.operations.status;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the samples of a Prometheus text exposition, as the services' /metrics serve it. */
public final class PrometheusText {

    /** One sample: a metric name, its labels and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private PrometheusText() {}

    /** A number as Prometheus writes it: Java's notation, or +Inf, -Inf, NaN. */
    static double number(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }

    public static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line.trim());
            if (line.startsWith("#") || !m.find()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher label = LABEL.matcher(m.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            try {
                samples.add(new Sample(m.group(1), labels, number(m.group(3))));
            } catch (NumberFormatException e) {
                // not a number in Prometheus's notation either: no sample lapse status needs
            }
        }
        return samples;
    }

    /** The sum of every sample of the metric (all its label sets) on the page; NaN when the page has none. */
    public static double sum(String page, String metric) {
        return sum(page, metric, sample -> true);
    }

    /** The sum of the samples of the metric with a label of this value, e.g. {@code full} of {@code scan="full"}. */
    public static double sum(String page, String metric, String labelValue) {
        return sum(page, metric, sample -> sample.labels().containsValue(labelValue));
    }

    private static double sum(String page, String metric, Predicate<Sample> which) {
        List<Sample> samples = parse(page).stream()
                .filter(sample -> sample.name().equals(metric) && which.test(sample))
                .toList();
        return samples.isEmpty()
                ? Double.NaN
                : samples.stream().mapToDouble(Sample::value).sum();
    }

    /** Reads a service's /metrics; an IOException says why it did not answer with them. */
    public static List<Sample> fetch(HttpClient http, String url, Duration timeout) throws IOException {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(url)).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException("HTTP " + response.statusCode());
            }
            return parse(response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
