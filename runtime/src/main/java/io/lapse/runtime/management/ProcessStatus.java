package io.lapse.runtime.management;

import io.lapse.metrics.MetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The status of one process: the timer store as its {@link TimerWatch} last saw it, and its own meters. */
public final class ProcessStatus implements StatusSource {

    private final TimerWatch timers;
    private final RegistryFigures meters;
    private final Clock clock;

    public ProcessStatus(TimerWatch timers, MeterRegistry registry, Clock clock) {
        this.timers = timers;
        this.meters = new RegistryFigures(registry);
        this.clock = clock;
    }

    private ProcessReport.Fleet fleet() {
        Double silence = meters.gauge(MetricNames.FLEET_SILENCE);
        if (silence == null) {
            return null;
        }
        return new ProcessReport.Fleet(
                silence == 1,
                meters.gauge(MetricNames.FLEET_SILENT_PARTITIONS).intValue(),
                meters.gauge(MetricNames.FLEET_PUSH_RATE),
                meters.gauge(MetricNames.FLEET_PUSH_BASELINE));
    }

    private ProcessReport.Drain drain() {
        Double backlog = meters.gauge(MetricNames.PULLER_BACKLOG_ALL);
        if (backlog == null) {
            return null;
        }
        return new ProcessReport.Drain(
                Math.round(backlog),
                meters.gauge(MetricNames.PULLER_DRAIN_RATE),
                meters.gauge(MetricNames.PULLER_DRAIN_ETA));
    }

    @Override
    public ProcessReport report() {
        TimerWatch.Look look = timers.latest();
        long now = clock.millis();
        List<ProcessReport.Watermark> marks = new ArrayList<>();
        look.watermarks()
                .forEach((partition, mark) ->
                        marks.add(new ProcessReport.Watermark(partition, mark, Math.max(0, now - mark))));
        marks.sort(Comparator.comparing(ProcessReport.Watermark::partition));
        return new ProcessReport(
                now,
                look.counts(),
                timers.oldestOverdueMs(),
                marks,
                meters.lateness(MetricNames.TIMER_FIRE_LATENESS),
                meters.countsBy(MetricNames.INGEST_RECORDS, "topic"),
                meters.countsBy(MetricNames.TIMER_EXPIRIES, "source"),
                meters.countsBy(MetricNames.PULLER_PULLS, "outcome"),
                meters.total(MetricNames.DLQ_RECORDS),
                fleet(),
                drain(),
                look.problem().stream().toList());
    }
}
