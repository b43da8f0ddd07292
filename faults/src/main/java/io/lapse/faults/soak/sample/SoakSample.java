package io.lapse.faults.soak.sample;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures of one moment of a soak, by column name (e.g. {@code lag.ingest.seconds}, {@code cpu.broker}), in the
 * order the CSV writes them; NaN where a figure could not be read.
 *
 * @param at seconds since the load started
 */
public record SoakSample(double at, Map<String, Double> figures) {

    public SoakSample {
        if (at < 0 || Double.isNaN(at)) {
            throw new IllegalArgumentException("a sample at " + at + " s");
        }
        figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }

    public double get(String column) {
        Double value = figures.get(column);
        if (value == null) {
            throw new IllegalArgumentException("no column " + column + " in " + figures.keySet());
        }
        return value;
    }
}
