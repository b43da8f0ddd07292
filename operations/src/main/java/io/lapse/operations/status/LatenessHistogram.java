package io.lapse.operations.status;

import io.lapse.metrics.MetricNames;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The timers' fire lateness as their /metrics export it: the histogram's cumulative bucket counts by upper bound in
 * seconds, summed over the services read. The difference of two readings of one service is the lateness of what it
 * fired between them.
 *
 * @param cumulative expiries fired no later than each bound; +Inf holds them all
 */
public record LatenessHistogram(Map<Double, Double> cumulative) {

    /** How Prometheus names the timer's histogram buckets. */
    static final String BUCKETS = MetricNames.prometheus(MetricNames.TIMER_FIRE_LATENESS, "_seconds_bucket");

    public static final LatenessHistogram EMPTY = new LatenessHistogram(Map.of());

    public LatenessHistogram {
        cumulative = Collections.unmodifiableMap(new TreeMap<>(cumulative));
    }

    /** The lateness buckets among a service's samples (none from a service that runs no timer). */
    public static LatenessHistogram of(List<PrometheusText.Sample> samples) {
        Map<Double, Double> buckets = new TreeMap<>();
        samples.stream()
                .filter(sample -> sample.name().equals(BUCKETS))
                .forEach(sample -> buckets.merge(
                        PrometheusText.number(sample.labels().getOrDefault("le", "+Inf")),
                        sample.value(),
                        Double::sum));
        return new LatenessHistogram(buckets);
    }

    public LatenessHistogram plus(LatenessHistogram other) {
        Map<Double, Double> sum = new TreeMap<>(cumulative);
        other.cumulative.forEach((bound, count) -> sum.merge(bound, count, Double::sum));
        return new LatenessHistogram(sum);
    }

    /**
     * What was fired after {@code earlier}, a reading of the same service. A count that went down means the service
     * restarted meanwhile: then all it counted since its start is what it fired after.
     */
    public LatenessHistogram since(LatenessHistogram earlier) {
        Map<Double, Double> later = new TreeMap<>();
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            double before = earlier.cumulative.getOrDefault(bucket.getKey(), 0.0);
            if (bucket.getValue() < before) {
                return this;
            }
            later.put(bucket.getKey(), bucket.getValue() - before);
        }
        return new LatenessHistogram(later);
    }

    public long fired() {
        return Math.round(cumulative.getOrDefault(Double.POSITIVE_INFINITY, 0.0));
    }

    /**
     * The quantile in ms, interpolated within its bucket as Prometheus's histogram_quantile does.
     *
     * @return null when nothing was fired
     */
    public Double quantileMillis(double q) {
        double count = cumulative.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
        if (count <= 0) {
            return null;
        }
        double rank = q * count;
        double lowerBound = 0;
        double lowerCount = 0;
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= rank) {
                if (bucket.getKey().isInfinite()) {
                    return lowerBound * 1000;
                }
                double share = (rank - lowerCount) / Math.max(bucket.getValue() - lowerCount, 1e-9);
                return (lowerBound + share * (bucket.getKey() - lowerBound)) * 1000;
            }
            lowerBound = bucket.getKey();
            lowerCount = bucket.getValue();
        }
        return lowerBound * 1000;
    }
}
