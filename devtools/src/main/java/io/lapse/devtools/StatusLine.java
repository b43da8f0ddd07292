package io.lapse.devtools;

import io.lapse.metrics.MetricNames;
import io.lapse.simulator.Fleet;
import io.lapse.store.timers.TimerStore;
import java.time.Clock;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

/** The demo's live line: what the simulated platform does and what Lapse makes of it. */
final class StatusLine {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final MetricsView metrics;
    private final TimerStore store;
    private final Fleet fleet;
    private final Clock clock;
    private final String pushTopic;
    private double lastPushes;
    private long lastAt;

    StatusLine(MetricsView metrics, TimerStore store, Fleet fleet, Clock clock, String pushTopic) {
        this.metrics = metrics;
        this.pushTopic = pushTopic;
        this.store = store;
        this.fleet = fleet;
        this.clock = clock;
        this.lastAt = clock.millis();
    }

    String next() throws Exception {
        long now = clock.millis();
        double pushes = metrics.count(MetricNames.INGEST_RECORDS, "topic", pushTopic);
        double perSecond = now > lastAt ? (pushes - lastPushes) * 1000.0 / (now - lastAt) : 0;
        lastPushes = pushes;
        lastAt = now;
        long watched = store.watchedCount().get(5, TimeUnit.SECONDS);
        return String.format(
                "%s  watched %d (simulator: %d pushing, %d silent, %d finished) | pushes %.0f/s"
                        + " | expiries %.0f | pulls ok %.0f, not found %.0f, failed %.0f, skipped %.0f"
                        + " | fire lateness p50 %s, p99 %s | watermark age %s | dead letters %.0f",
                LocalTime.ofInstant(clock.instant(), ZoneId.systemDefault()).format(TIME),
                watched,
                fleet.count(Fleet.Mode.PUSHING),
                fleet.count(Fleet.Mode.SILENT),
                fleet.count(Fleet.Mode.FINISHED),
                perSecond,
                metrics.count(MetricNames.TIMER_EXPIRIES),
                pulls("ok"),
                pulls("not_found"),
                pulls("failed"),
                pulls("skipped"),
                millis(metrics.percentileMillis(MetricNames.TIMER_FIRE_LATENESS, 0.5)),
                millis(metrics.percentileMillis(MetricNames.TIMER_FIRE_LATENESS, 0.99)),
                seconds(metrics.gauge(MetricNames.TIMER_WATERMARK_AGE)),
                metrics.count(MetricNames.DLQ_RECORDS));
    }

    private double pulls(String outcome) {
        return metrics.count(MetricNames.PULLER_PULLS, "outcome", outcome);
    }

    private static String millis(OptionalDouble value) {
        return value.isPresent() ? String.format("%.0f ms", value.getAsDouble()) : "-";
    }

    private static String seconds(OptionalDouble value) {
        return value.isPresent() ? String.format("%.2f s", value.getAsDouble()) : "-";
    }
}
