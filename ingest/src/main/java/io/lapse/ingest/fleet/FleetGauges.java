package io.lapse.ingest.fleet;

import io.lapse.event.FleetEvent.PartitionRate;
import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** What the fleet silence watch shows Prometheus; numbers from the start (0 until measured), never NaN. */
public final class FleetGauges {

    private volatile boolean silenceOn;
    private volatile int silentPartitions;
    private volatile double pushRate;
    private volatile double baselineRate;

    public FleetGauges(MeterRegistry registry) {
        Gauge.builder(MetricNames.FLEET_SILENCE, this, g -> g.silenceOn ? 1 : 0)
                .description("1 while a fleet silence is on: push partitions went silent at once")
                .register(registry);
        Gauge.builder(MetricNames.FLEET_SILENT_PARTITIONS, this, g -> g.silentPartitions)
                .description("Push partitions whose push rate fell by fleet.silent-percent of their baseline")
                .register(registry);
        Gauge.builder(MetricNames.FLEET_PUSH_RATE, this, g -> g.pushRate)
                .description("Pushes per second producers wrote over the last fleet.window (partitions judged)")
                .register(registry);
        Gauge.builder(MetricNames.FLEET_PUSH_BASELINE, this, g -> g.baselineRate)
                .description("Pushes per second producers wrote over the fleet.baseline before the window")
                .register(registry);
    }

    void show(boolean on, SilenceVerdict verdict) {
        silenceOn = on;
        silentPartitions = verdict.silent().size();
        pushRate = verdict.judged().stream()
                .mapToDouble(PartitionRate::pushesPerSecond)
                .sum();
        baselineRate = verdict.judged().stream()
                .mapToDouble(PartitionRate::baselinePushesPerSecond)
                .sum();
    }
}
