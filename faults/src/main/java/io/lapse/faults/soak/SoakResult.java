package io.lapse.faults.soak;

import io.lapse.faults.soak.fault.StormOutcome;
import io.lapse.faults.soak.judge.FleetEventsVerdict;
import io.lapse.faults.soak.report.Growth;
import io.lapse.faults.soak.sample.Sampler;
import io.lapse.faults.soak.sample.SoakSample;
import java.nio.file.Path;
import java.util.List;

/**
 * What one soak measured.
 *
 * @param name     the run's name: its topics, groups, Redis prefix and folder carry it
 * @param dir      where it wrote samples.csv, the plots, summary.md and the processes' logs
 * @param samples  in time order
 * @param lateness of every expiry of a silent order, ms
 * @param fault    what the fault cost, a line of text; empty without a fault
 * @param summary  the Markdown it printed at the end
 * @param storm    what the fleet-silence storm measured; null without it
 * @param fleetEventsHold whether the fleet and cohort events were as the load made them ({@link FleetEventsVerdict});
 *                 true when they were not judged
 */
public record SoakResult(
        String name,
        Path dir,
        List<SoakSample> samples,
        long[] lateness,
        String fault,
        String summary,
        StormOutcome storm,
        boolean fleetEventsHold) {

    public SoakResult {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("a soak without a sample");
        }
        samples = List.copyOf(samples);
        lateness = lateness.clone();
    }

    SoakSample last() {
        return samples.get(samples.size() - 1);
    }

    /** Whether the lag of the service's group grows (see {@link Growth}). */
    public boolean lagGrows(String service) {
        return Growth.of(samples, Sampler.judgedLag(service)).grows();
    }

    public long falseExpiries() {
        return (long) last().get("false");
    }

    public long revived() {
        return (long) last().get("revived");
    }

    public long missed() {
        return (long) last().get("missed");
    }

    public long fired() {
        return (long) last().get("fired");
    }

    /** The last sample's lag of the service's group in records; NaN when it could not be read. */
    public double lagRecords(String service) {
        return last().get("lag." + service + ".records");
    }

    @Override
    public long[] lateness() {
        return lateness.clone();
    }
}
