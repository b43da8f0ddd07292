package io.lapse.compensator.rebuild;

import io.lapse.metrics.MetricNames;
import io.lapse.store.timers.RebuildCount;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/** What the compensator tells Prometheus: how much it mirrors, what it rebuilt, and when it last looked at Redis. */
public final class CompensatorMetrics {

    /** Records a postponed rebuild waits for the mirror to read: catching up is under way while it is above 0. */
    public static final String REBUILD_BEHIND = MetricNames.COMPENSATOR_REBUILD_BEHIND;

    /** The two ways the compensator compares its mirror with Redis. */
    public enum Scan {
        /** The whole mirror, after Redis lost its data or on demand. */
        FULL,
        /** This instance's part, every compensator.scan-interval. */
        DRIFT
    }

    private final MeterRegistry registry;
    private final Clock clock;
    private final long startedAt;
    private final AtomicLong orders = new AtomicLong(-1);
    private final AtomicLong rebuildBehind = new AtomicLong();
    private final Counter watched;
    private final Counter givenUp;
    private final Counter ended;
    private final Counter recovered;
    private final Counter epochs;
    private final Set<String> epochsSeen = new HashSet<>();
    private final AtomicLong[] lastScan = {new AtomicLong(-1), new AtomicLong(-1)};
    private final AtomicLong[] lastDurationMillis = {new AtomicLong(-1), new AtomicLong(-1)};

    public CompensatorMetrics(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        this.startedAt = clock.millis();
        Gauge.builder("lapse.compensator.orders", orders, n -> n.get() < 0 ? Double.NaN : n.get())
                .description("Orders in this instance's mirror at its last drift scan")
                .register(registry);
        Gauge.builder(REBUILD_BEHIND, rebuildBehind, AtomicLong::get)
                .baseUnit("records")
                .description("Records the mirror had still to read when the last rebuild was postponed for them; 0 "
                        + "when none is")
                .register(registry);
        watched = rebuilt(registry, "watched");
        givenUp = rebuilt(registry, "given-up");
        ended = rebuilt(registry, "ended");
        recovered = Counter.builder("lapse.compensator.expiries.recovered")
                .description("Watched timers the compensator wrote back: each one's next expiry Redis had lost")
                .register(registry);
        epochs = Counter.builder("lapse.compensator.redis.epochs")
                .description("Distinct Redis epochs seen; a new one follows every full rebuild")
                .register(registry);
        for (Scan scan : Scan.values()) {
            String name = scan.name().toLowerCase();
            Gauge.builder(MetricNames.COMPENSATOR_SCAN_LAST, lastScan[scan.ordinal()], CompensatorMetrics::orNaN)
                    .tag("scan", name)
                    .baseUnit("seconds")
                    .description("When the last scan of the mirror against Redis completed (epoch seconds)")
                    .register(registry);
            // a number from the start, unlike the time of the last scan: an alert on it fires when none completes
            Gauge.builder("lapse.compensator.scan.age", lastScan[scan.ordinal()], this::secondsSince)
                    .tag("scan", name)
                    .baseUnit("seconds")
                    .description("How long ago the last scan completed, or the compensator started when none has")
                    .register(registry);
            Gauge.builder(
                            MetricNames.COMPENSATOR_SCAN_DURATION,
                            lastDurationMillis[scan.ordinal()],
                            n -> n.get() < 0 ? Double.NaN : n.get() / 1000.0)
                    .tag("scan", name)
                    .baseUnit("seconds")
                    .description("How long the last scan took")
                    .register(registry);
        }
    }

    private static Counter rebuilt(MeterRegistry registry, String phase) {
        return Counter.builder("lapse.compensator.timers.rebuilt")
                .tag("phase", phase)
                .description("Timer states the compensator wrote because Redis held less than its mirror")
                .register(registry);
    }

    private double secondsSince(AtomicLong lastScanSeconds) {
        long since = lastScanSeconds.get() < 0 ? startedAt : lastScanSeconds.get() * 1000;
        return Math.max(0, clock.millis() - since) / 1000.0;
    }

    private static double orNaN(AtomicLong seconds) {
        return seconds.get() < 0 ? Double.NaN : seconds.get();
    }

    /** @param pending orders whose pushes the push folder holds until the end of its round */
    public void watchPendingPushes(IntSupplier pending) {
        Gauge.builder("lapse.compensator.pushes.pending", pending, IntSupplier::getAsInt)
                .description("Orders whose pushes were read and wait for the end of the round to reach the mirror")
                .register(registry);
    }

    /** @param behind records a postponed rebuild waits for the mirror to read; 0 once none waits */
    void rebuildBehind(long behind) {
        rebuildBehind.set(behind);
    }

    public void written(RebuildCount count) {
        watched.increment(count.watched());
        givenUp.increment(count.givenUp());
        ended.increment(count.ended());
        recovered.increment(count.watched());
    }

    public void scanned(Scan scan, Duration took) {
        lastScan[scan.ordinal()].set(clock.millis() / 1000);
        lastDurationMillis[scan.ordinal()].set(took.toMillis());
    }

    public void mirrored(long count) {
        orders.set(count);
    }

    synchronized void sawEpoch(String epoch) {
        if (epoch != null && epochsSeen.add(epoch)) {
            epochs.increment();
        }
    }
}
