package io.lapse.metrics;

/**
 * The names of the meters that more than one module reads: the service that registers one and the status page, the
 * demo's status line or the benchmark that read it use the same constant. Prometheus shows them with dots as
 * underscores and the unit appended ({@code lapse.timer.fire.lateness} → {@code lapse_timer_fire_lateness_seconds}).
 */
public final class MetricNames {

    /** Timer: deadline → Kafka acknowledged the expiry. */
    public static final String TIMER_FIRE_LATENESS = "lapse.timer.fire.lateness";
    /** Timer: expiries published, by {@code source}. */
    public static final String TIMER_EXPIRIES = "lapse.timer.expiries";
    /** Timer: how far the watermark trails the clock. */
    public static final String TIMER_WATERMARK_AGE = "lapse.timer.watermark.age";
    /** Timer: shards this instance serves. */
    public static final String TIMER_SHARDS_OWNED = "lapse.timer.shards.owned";
    /** Ingest: how far it holds its watermarks back because records arrived later than the slack allows, lately. */
    public static final String INGEST_WATERMARK_HELD_BACK = "lapse.ingest.watermark.held.back";
    /** Ingest: from asking the broker how far its partitions reach to the answer (the proof of being caught up). */
    public static final String INGEST_PROOF_ROUND_TRIP = "lapse.ingest.proof.round.trip";
    /** Ingest: how far behind its partition's mark a record arrived, for those that did: what the slack covers. */
    public static final String INGEST_RECORD_BEHIND_MARK = "lapse.ingest.record.behind.mark";
    /** Ingest: records consumed, by {@code topic}. */
    public static final String INGEST_RECORDS = "lapse.ingest.records";
    /** Ingest: 1 while a fleet silence is on (the same on every instance: it is read from Redis), else 0. */
    public static final String FLEET_SILENCE = "lapse.fleet.silence";
    /** Ingest: push partitions silent now. */
    public static final String FLEET_SILENT_PARTITIONS = "lapse.fleet.silent.partitions";
    /** Ingest: pushes per second written to the push topic over the last fleet.window. */
    public static final String FLEET_PUSH_RATE = "lapse.fleet.push.rate";
    /** Ingest: pushes per second written to the push topic over the fleet.baseline before that window. */
    public static final String FLEET_PUSH_BASELINE = "lapse.fleet.push.baseline";
    /** Ingest: cohorts silent now (the same on every instance: it is read from Redis). */
    public static final String FLEET_COHORT_SILENCES = "lapse.fleet.cohort.silences";
    /** Ingest: per silent {@code cohort}, about how many of its orders are silent; absent for other cohorts. */
    public static final String FLEET_COHORT_SILENT_ORDERS = "lapse.fleet.cohort.silent.orders";
    /** Ingest: cohorts big enough to be judged (fleet.cohort-min-orders), among the fleet.cohort-limit held. */
    public static final String FLEET_COHORTS_JUDGED = "lapse.fleet.cohorts.judged";
    /** Puller: pulls by {@code outcome}. */
    public static final String PULLER_PULLS = "lapse.puller.pulls";
    /** Puller: time of one upstream request. */
    public static final String PULLER_REQUEST = "lapse.puller.request";
    /** Puller: waits for a permit of upstream.rate-limit. */
    public static final String PULLER_RATE_LIMIT_WAIT = "lapse.puller.rate.limit.wait";
    /**
     * Puller: expiries not answered yet, summed over the partitions this instance reads ({@code .total} would be
     * taken for a counter's suffix by Prometheus and collide with the per-partition {@code lapse.puller.backlog}).
     */
    public static final String PULLER_BACKLOG_ALL = "lapse.puller.backlog.all";
    /** Puller: expiries answered per second over the last minute. */
    public static final String PULLER_DRAIN_RATE = "lapse.puller.drain.rate";
    /** Puller: seconds until the backlog is drained at the drain rate; 0 without a backlog, -1 when not draining. */
    public static final String PULLER_DRAIN_ETA = "lapse.puller.drain.eta";
    /** Puller: expiries SKIPPED because this puller had pulled the order OK at or after their deadline. */
    public static final String PULLER_SKIPPED_ALREADY_PULLED = "lapse.puller.skipped.already.pulled";
    /** Puller: pulls parked until upstream answers them (the parked topic's records not answered yet). */
    public static final String PULLER_HELD = "lapse.puller.held";
    /** Puller: 1, tagged with its {@code cause}, while upstream is out (the circuit holds pulls back), else 0. */
    public static final String PULLER_OUTAGE = "lapse.puller.outage";
    /** Puller: when the outage on now began, epoch seconds; 0 without one. */
    public static final String PULLER_OUTAGE_SINCE = "lapse.puller.outage.since";
    /** Compensator: when the last scan ({@code scan} = drift or full) of its mirror against Redis completed. */
    public static final String COMPENSATOR_SCAN_LAST = "lapse.compensator.scan.last";
    /** Compensator: how long the last scan ({@code scan} = drift or full) took. */
    public static final String COMPENSATOR_SCAN_DURATION = "lapse.compensator.scan.duration";
    /** Compensator: records its mirror must read before a postponed rebuild may declare the epochs. */
    public static final String COMPENSATOR_REBUILD_BEHIND = "lapse.compensator.rebuild.behind";
    /** Every service: records sent to the dead-letter topic, by {@code service}. */
    public static final String DLQ_RECORDS = "lapse.dlq.records";

    private MetricNames() {}

    /**
     * The name Prometheus shows a meter under: dots as underscores, then the suffix Micrometer appends for its base
     * unit and type ({@code "_seconds"}, {@code "_total"}, {@code "_seconds_bucket"}, or {@code ""}).
     */
    public static String prometheus(String meterName, String suffix) {
        return meterName.replace('.', '_') + suffix;
    }
}
