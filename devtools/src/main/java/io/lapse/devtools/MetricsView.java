package io.lapse.devtools;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

/** Reads the few numbers the status line shows from the process's meters. */
final class MetricsView {

    private final MeterRegistry registry;

    MetricsView(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The sum of a counter over all its tags, or over those matching one tag. */
    double count(String name, String... tag) {
        var search = registry.find(name);
        if (tag.length == 2) {
            search = search.tag(tag[0], tag[1]);
        }
        return search.counters().stream().mapToDouble(c -> c.count()).sum();
    }

    /** A percentile of a timer in milliseconds, over Micrometer's recent window; empty before the first sample. */
    OptionalDouble percentileMillis(String timer, double percentile) {
        Timer found = registry.find(timer).timer();
        if (found == null || found.count() == 0) {
            return OptionalDouble.empty();
        }
        for (ValueAtPercentile value : found.takeSnapshot().percentileValues()) {
            if (Math.abs(value.percentile() - percentile) < 1e-9) {
                return OptionalDouble.of(value.value(TimeUnit.MILLISECONDS));
            }
        }
        return OptionalDouble.empty();
    }

    OptionalDouble gauge(String name) {
        var gauge = registry.find(name).gauge();
        return gauge == null || Double.isNaN(gauge.value()) ? OptionalDouble.empty() : OptionalDouble.of(gauge.value());
    }
}
