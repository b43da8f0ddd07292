package io.lapse.timer;

import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.LongSupplier;

/**
 * How far the watermark trails the clock (see {@link WatermarkAge}): when ingest lags or stops, when Redis does not
 * answer or holds no watermark, this grows and on-call should look.
 */
final class WatermarkGauge {

    private WatermarkGauge() {}

    static void register(MeterRegistry registry, LongSupplier ageMillis) {
        Gauge.builder(MetricNames.TIMER_WATERMARK_AGE, () -> ageMillis.getAsLong() / 1000.0)
                .baseUnit("seconds")
                .description("How far the watermark (what ingest has read) trails the clock; it runs on while the "
                        + "timer cannot read it")
                .register(registry);
    }
}
