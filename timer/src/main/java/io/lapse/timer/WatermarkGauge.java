package io.lapse.timer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.LongSupplier;

/**
 * How far the watermark trailed the clock when the timer last read it: when ingest lags or stops, this grows and
 * on-call should look.
 */
final class WatermarkGauge {

    private WatermarkGauge() {}

    /** @param ageMillis the age at the last read, negative before ingest reported any watermark */
    static void register(MeterRegistry registry, LongSupplier ageMillis) {
        Gauge.builder("lapse.timer.watermark.age", () -> {
                    long age = ageMillis.getAsLong();
                    return age < 0 ? Double.NaN : age / 1000.0;
                })
                .baseUnit("seconds")
                .description("How far the watermark (what ingest has read) trails the clock")
                .register(registry);
    }
}
