package io.lapse.runtime.management;

import io.lapse.store.timers.TimerCounts;
import java.util.List;
import java.util.Map;

/**
 * One look at a process, as {@code /status.json} serves it. Figures from meters count since the process started;
 * those of a service this process does not run are absent (empty maps, zero counts).
 *
 * @param timers      null while Redis has not answered yet
 * @param fleet       null when this process runs no ingest
 * @param drain       null when this process runs no puller
 * @param unavailable what could not be read this time, and why
 */
public record ProcessReport(
        long at,
        TimerCounts timers,
        Long oldestOverdueAgeMs,
        List<Watermark> watermarks,
        Lateness lateness,
        Map<String, Long> ingested,
        Map<String, Long> expiries,
        Map<String, Long> pulls,
        long deadLetters,
        Fleet fleet,
        Drain drain,
        List<String> unavailable) {

    /**
     * The puller's backlog (expiries not answered yet, over the partitions it reads), how many it answered per
     * second over the last minute, and the seconds until the backlog is drained at that rate: 0 without a backlog,
     * -1 while nothing drains it.
     */
    public record Drain(long backlog, double perSecond, double secondsToDrain) {}

    /**
     * Whether producers went silent on push partitions at once (the same on every ingest: it is kept in Redis), and
     * the push rate the judgement rests on. Unlike an old watermark (ingest stopped reading: nothing fires), a fleet
     * silence lets every expiry fire: the orders are pulled.
     */
    public record Fleet(
            boolean silence, int silentPartitions, double pushesPerSecond, double baselinePushesPerSecond) {}

    /** How far ingest has read one source partition, and how long ago that event time was. */
    public record Watermark(String partition, long watermark, long ageMs) {}

    /**
     * Fire lateness (deadline to Kafka's acknowledgement of the expiry): p50 and p99 over the recent window, and the
     * number of expiries in each bucket since start.
     */
    public record Lateness(long count, Double p50Ms, Double p99Ms, List<Bucket> histogram) {}

    /** Expiries with lateness in ({@code previous bucket's upToMs}, {@code upToMs}]; the last bucket has no bound. */
    public record Bucket(Double upToMs, long count) {}
}
