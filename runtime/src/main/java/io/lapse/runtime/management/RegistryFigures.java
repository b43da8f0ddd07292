package io.lapse.runtime.management;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/** The figures of the status page that the process's own meters hold: what its services counted since start. */
final class RegistryFigures {

    /** Upper bounds of the status page's lateness buckets: a few, readable at a glance; the last is open. */
    private static final double[] BUCKET_BOUNDS_MS = {5, 10, 25, 50, 100, 250, 1_000, 5_000};

    private final MeterRegistry registry;

    RegistryFigures(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The counter summed over every tag set, by the values of one tag. */
    Map<String, Long> countsBy(String counter, String tag) {
        Map<String, Long> counts = new TreeMap<>();
        for (Counter c : registry.find(counter).counters()) {
            String value = c.getId().getTag(tag);
            counts.merge(value == null ? "" : value, (long) c.count(), Long::sum);
        }
        return counts;
    }

    long total(String counter) {
        return (long) registry.find(counter).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    /** The gauge's value, or null when no service of this process registered it. */
    Double gauge(String name) {
        Gauge found = registry.find(name).gauge();
        return found == null ? null : found.value();
    }

    ProcessReport.Lateness lateness(String timer) {
        Timer found = registry.find(timer).timer();
        if (found == null) {
            return new ProcessReport.Lateness(0, null, null, List.of());
        }
        HistogramSnapshot snapshot = found.takeSnapshot();
        return new ProcessReport.Lateness(
                snapshot.count(), percentile(snapshot, 0.5), percentile(snapshot, 0.99), buckets(snapshot));
    }

    private static Double percentile(HistogramSnapshot snapshot, double percentile) {
        if (snapshot.count() == 0) {
            return null;
        }
        for (ValueAtPercentile value : snapshot.percentileValues()) {
            if (Math.abs(value.percentile() - percentile) < 1e-9) {
                return value.value(TimeUnit.MILLISECONDS);
            }
        }
        return null;
    }

    /**
     * The timer's fine, cumulative histogram folded into a few buckets: each bound takes the count at the largest
     * fine bucket within it, so a bucket says "at most this late".
     */
    private static List<ProcessReport.Bucket> buckets(HistogramSnapshot snapshot) {
        CountAtBucket[] fine = snapshot.histogramCounts();
        if (fine.length == 0) {
            return List.of();
        }
        List<ProcessReport.Bucket> buckets = new ArrayList<>();
        long below = 0;
        for (double bound : BUCKET_BOUNDS_MS) {
            long cumulative = 0;
            for (CountAtBucket bucket : fine) {
                if (bucket.bucket(TimeUnit.MILLISECONDS) <= bound) {
                    cumulative = (long) bucket.count();
                }
            }
            buckets.add(new ProcessReport.Bucket(bound, cumulative - below));
            below = cumulative;
        }
        buckets.add(new ProcessReport.Bucket(null, snapshot.count() - below));
        return buckets;
    }
}
