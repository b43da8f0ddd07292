package io.lapse.operations.status;

import io.lapse.metrics.MetricNames;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What lapse status reads from the running services' /metrics: fire lateness, from the histogram's buckets summed
 * over every timer reached (so since each started), when a compensator last compared its mirror with Redis, and the
 * pullers' backlog and how fast it drains.
 */
final class ServiceMetrics {

    /** Epoch seconds at which a compensator last finished a scan ({@code scan} label) of its mirror against Redis. */
    static final String LAST_SCAN = MetricNames.prometheus(MetricNames.COMPENSATOR_SCAN_LAST, "_seconds");
    /** The periodic scan of every order in the mirror; {@code full} is a rebuild, which only a loss of Redis starts. */
    static final String DRIFT_SCAN = "drift";
    /** Pulls a puller has parked until upstream answers them. */
    static final String HELD_PULLS = MetricNames.prometheus(MetricNames.PULLER_HELD, "");
    /** 1, with its {@code cause}, while a puller finds upstream out. */
    static final String OUTAGE = MetricNames.prometheus(MetricNames.PULLER_OUTAGE, "");
    /** When that outage began, epoch seconds. */
    static final String OUTAGE_SINCE = MetricNames.prometheus(MetricNames.PULLER_OUTAGE_SINCE, "_seconds");
    /** Expiries a puller has not answered yet, over the partitions it reads. */
    static final String BACKLOG = MetricNames.prometheus(MetricNames.PULLER_BACKLOG_ALL, "");
    /** Expiries a puller answered per second over the last minute. */
    static final String DRAIN_RATE = MetricNames.prometheus(MetricNames.PULLER_DRAIN_RATE, "");
    /** Records a compensator's mirror must read before its postponed rebuild may declare the epochs. */
    static final String REBUILD_BEHIND = MetricNames.prometheus(MetricNames.COMPENSATOR_REBUILD_BEHIND, "_records");

    /**
     * @param unreachable "url: why" for each URL that did not answer
     * @param p50Millis   null when no timer reached has fired anything
     * @param fired       expiries the reached timers have fired
     * @param lastDriftScan epoch ms, null when no service reached exports it
     * @param heldPulls   pulls the reached pullers have parked until upstream answers them
     * @param outage      why a reached puller finds upstream out (its {@code cause}), or null while none does
     * @param outageSince when the earliest such outage began, epoch ms; 0 without one
     * @param rebuildBehind records the reached compensators must read before their postponed rebuild; 0 when none waits
     * @param backlog     expiries the reached pullers have not answered yet
     * @param drainRate   expiries the reached pullers answered per second over the last minute
     */
    record Reading(
            List<String> reached,
            List<String> unreachable,
            Double p50Millis,
            Double p99Millis,
            long fired,
            Long lastDriftScan,
            long heldPulls,
            String outage,
            long outageSince,
            long rebuildBehind,
            long backlog,
            double drainRate) {

        /** {@link #secondsToDrain} for --json; null while the backlog does not drain. */
        @com.fasterxml.jackson.annotation.JsonProperty("secondsToDrain")
        Long drainSeconds() {
            OptionalLong seconds = secondsToDrain();
            return seconds.isPresent() ? seconds.getAsLong() : null;
        }

        /** Seconds until the pullers have drained their backlog at their rate; empty while it does not drain. */
        OptionalLong secondsToDrain() {
            if (backlog == 0) {
                return OptionalLong.of(0);
            }
            return drainRate > 0 ? OptionalLong.of(Math.round(backlog / drainRate)) : OptionalLong.empty();
        }
    }

    private ServiceMetrics() {}

    static Reading read(List<String> urls, Duration timeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        List<String> reached = new ArrayList<>();
        List<String> unreachable = new ArrayList<>();
        LatenessHistogram lateness = LatenessHistogram.EMPTY;
        Long lastScan = null;
        double held = 0;
        String outage = null;
        double outageSince = 0;
        double behind = 0;
        double backlog = 0;
        double drainRate = 0;
        for (String url : urls) {
            List<PrometheusText.Sample> samples;
            try {
                samples = PrometheusText.fetch(http, url, timeout);
            } catch (IOException | IllegalArgumentException e) {
                unreachable.add(
                        url + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
                continue;
            }
            reached.add(url);
            lateness = lateness.plus(LatenessHistogram.of(samples));
            for (PrometheusText.Sample sample : samples) {
                if (sample.name().equals(HELD_PULLS)) {
                    held += sample.value();
                } else if (sample.name().equals(OUTAGE) && sample.value() > 0) {
                    outage = sample.labels().get("cause");
                } else if (sample.name().equals(OUTAGE_SINCE) && sample.value() > 0) {
                    outageSince = outageSince == 0 ? sample.value() : Math.min(outageSince, sample.value());
                } else if (sample.name().equals(REBUILD_BEHIND)) {
                    behind += sample.value();
                } else if (sample.name().equals(BACKLOG)) {
                    backlog += sample.value();
                } else if (sample.name().equals(DRAIN_RATE)) {
                    drainRate += sample.value();
                } else if (sample.name().equals(LAST_SCAN)
                        && DRIFT_SCAN.equals(sample.labels().get("scan"))
                        && sample.value() > 0) {
                    lastScan = Math.max(lastScan == null ? 0 : lastScan, Math.round(sample.value() * 1000));
                }
            }
        }
        return new Reading(
                reached,
                unreachable,
                lateness.quantileMillis(0.5),
                lateness.quantileMillis(0.99),
                lateness.fired(),
                lastScan,
                Math.round(held),
                outage,
                Math.round(outageSince * 1000),
                Math.round(behind),
                Math.round(backlog),
                drainRate);
    }
}
