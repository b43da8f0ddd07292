package io.lapse.compensator;

import io.lapse.config.Durations;
import io.lapse.store.RebuildCount;
import io.lapse.store.TimerImage;
import io.lapse.store.Watermarks;
import java.time.Clock;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic comparison of this instance's part of the mirror with Redis, for losses too small to take an epoch
 * along: a failover that lost the last writes, a ttl-mode notification nobody heard. Only orders ingest has read past
 * (up to the watermark) are compared, so that it never does ingest's work ahead of it.
 *
 * <p>While a shard lacks its epoch a scan writes nothing: the rebuild writes Redis then, from a mirror caught up with
 * the loss. A scan first waits, for at most an interval, until the mirror has processed everything published when it began;
 * a mirror still behind then skips the round. Its images would be older than what ingest wrote, so comparing them
 * is work for nothing while the compensator is short of time, and an order Redis lost would get back an older
 * deadline than its last push gave it.
 *
 * <p>Nor does a scan compare an order whose newest status was read within the last {@link #settling} before the
 * scan began (or before the watermark, when that is earlier). Such an order is either still pushing, and its next
 * push re-arms whatever Redis lost, or it has just gone silent, and a later scan compares it before its deadline,
 * since {@code settling} leaves a scan interval and {@link #HEADROOM} of the ttl. Live orders are almost all of a
 * fleet: at 1 M orders pushing every 15 s, comparing each every minute was a fifth of the compensator's CPU and
 * 17,000 Lua merges a second for Redis.
 */
final class DriftScan {

    private static final Logger log = LoggerFactory.getLogger(DriftScan.class);
    private static final long LONGEST_SLEEP_MS = 1_000;

    /** What a lost order's deadline keeps after the scan that restores it: the watermark's lag and the scan's time. */
    static final Duration HEADROOM = Duration.ofSeconds(10);

    private final CompensatorStreams streams;
    private final CaughtUp caughtUp;
    private final BooleanSupplier redisWhole;
    private final Watermarks watermarks;
    private final Supplier<MirrorWriter> writer;
    private final CompensatorMetrics metrics;
    private final Duration interval;
    private final Duration settling;
    private final Clock clock;
    private long next;

    DriftScan(
            CompensatorStreams streams,
            CaughtUp caughtUp,
            BooleanSupplier redisWhole,
            Watermarks watermarks,
            Supplier<MirrorWriter> writer,
            CompensatorMetrics metrics,
            Duration interval,
            Duration ttl,
            Clock clock) {
        this.streams = streams;
        this.caughtUp = caughtUp;
        this.redisWhole = redisWhole;
        this.watermarks = watermarks;
        this.writer = writer;
        this.metrics = metrics;
        this.interval = interval;
        this.settling = settling(ttl, interval);
        this.clock = clock;
    }

    /** One round of the scan's loop: a scan when one is due, a short sleep otherwise. */
    void runWhenDue() throws InterruptedException {
        long now = clock.millis();
        if (now < next) {
            Thread.sleep(Math.min(next - now, LONGEST_SLEEP_MS));
            return;
        }
        next = now + interval.toMillis();
        if (streams.isRunning()) { // otherwise the store is migrating or restoring: the next scan will see it
            run(now);
        }
    }

    private void run(long started) throws InterruptedException {
        if (!redisWhole.getAsBoolean()) {
            return; // a rebuild writes Redis now, from a mirror caught up with the loss
        }
        long behind = caughtUp.await(interval);
        if (behind > 0) {
            log.info(
                    "the drift scan skips a round: the mirror is still {} records behind what was published when the"
                            + " round began, {} ago",
                    behind,
                    Durations.format(interval));
            return;
        }
        OptionalLong mark = Blocking.await(watermarks.low(), "read the watermark");
        MirrorWriter scan = writer.get();
        AtomicLong orders = new AtomicLong();
        streams.local()
                .read(
                        batch -> {
                            orders.addAndGet(batch.size());
                            if (mark.isPresent() && redisWhole.getAsBoolean()) { // and not lost since
                                long settledBy = Math.min(mark.getAsLong(), started) - settling.toMillis();
                                scan.write(batch, image -> settled(image) <= settledBy);
                            }
                        },
                        MirrorSource.Progress.NONE);
        RebuildCount count = scan.total();
        if (count.written() > 0) {
            log.info(
                    "the drift scan wrote {} timers Redis had lost or fallen behind on ({} due at once)",
                    count.written(),
                    count.overdue());
        }
        metrics.mirrored(orders.get());
        metrics.scanned(CompensatorMetrics.Scan.DRIFT, Duration.ofMillis(clock.millis() - started));
    }

    /**
     * How long before the scan began (or the watermark) an order's newest status must have been read for the scan to
     * compare it: the ttl less a scan interval and the headroom, none when that leaves nothing.
     */
    static Duration settling(Duration ttl, Duration interval) {
        Duration settling = ttl.minus(interval).minus(HEADROOM);
        return settling.isNegative() ? Duration.ZERO : settling;
    }

    /** When ingest had to read the order's newest status for Redis to know it. */
    private static long settled(TimerImage image) {
        return image.phase() == TimerImage.Phase.ENDED ? image.at() : image.lastSeen();
    }
}
