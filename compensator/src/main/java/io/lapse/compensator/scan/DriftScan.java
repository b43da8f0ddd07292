package io.lapse.compensator.scan;

import io.lapse.compensator.fold.CaughtUp;
import io.lapse.compensator.mirror.Blocking;
import io.lapse.compensator.mirror.MirrorSource;
import io.lapse.compensator.mirror.MirrorWriter;
import io.lapse.compensator.rebuild.CompensatorMetrics;
import io.lapse.compensator.rebuild.RebuildOnLoss;
import io.lapse.compensator.streams.CompensatorStreams;
import io.lapse.config.Durations;
import io.lapse.store.timers.RebuildCount;
import io.lapse.store.timers.TimerImage;
import io.lapse.store.watermarks.Watermarks;
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
 * along: keys deleted by hand, a ttl-mode notification nobody heard. Only orders ingest has read past (up to the
 * watermark) are compared, so that it never does ingest's work ahead of it.
 *
 * <p>While a shard lacks its epoch a scan writes nothing: the rebuild writes Redis then, from a mirror caught up with
 * the loss. A scan first waits, for at most an interval (at least {@link #LEAST_CATCH_UP}), until the mirror has
 * processed everything published when it began; a mirror still behind then skips the round. Its images would be older than what ingest wrote, so comparing
 * them is work for nothing while the compensator is short of time, and an order Redis lost would get back an older
 * deadline than its last push gave it.
 *
 * <p>A scan writes an image only once the moment it names (a watched order's next deadline, a finished or given-up
 * order's end) has passed both the round's start and the watermark ({@link #comparable}). The mirror it reads holds
 * what was published before the round began, while Redis may lose, after that, an arm ingest applied from a later
 * push: an image whose deadline is still to come may be older than that push, and written back it would fire the
 * order at an older deadline than its push gave it, while the order still pushes (what a randomized run with ttl 3 s
 * and scans every 5 s saw after its due sets were deleted). No push the mirror has not seen can move a deadline that
 * had passed before the round began. So a live order is always left to its own next push, whatever the ttl and the
 * scan interval, and the live fleet costs the scan no comparison; an order Redis lost that went silent is written back
 * in the first round after its deadline, and fires late by up to an interval. A finished or given-up order's mark is
 * compared in the rounds that follow its end only ({@link #ENDS_COMPARED_FOR}).
 */
public final class DriftScan {

    private static final Logger log = LoggerFactory.getLogger(DriftScan.class);
    private static final long LONGEST_SLEEP_MS = 1_000;

    /**
     * For how many intervals after its end a finished or given-up order's mark is compared: the rounds that follow it,
     * with one to spare. The marks of the orders that ended within the tombstone retention (24 M a day at 1 M orders
     * in hour-long sessions) would otherwise be compared every round, a Lua merge each; and a mark Redis loses later
     * only keeps a replayed old push from reviving its order, while a loss of all its data is rebuilt in full.
     */
    static final int ENDS_COMPARED_FOR = 2;

    /**
     * The least a round waits for the mirror to catch up, however short the interval: the push folders' hand-over,
     * the streams' fold and their next commit (every second) take a few; a round that waits longer than its interval
     * only starts the next one later.
     */
    static final Duration LEAST_CATCH_UP = RebuildOnLoss.CATCH_UP_ROUND;

    private final CompensatorStreams streams;
    private final Runnable handOverPushes;
    private final CaughtUp caughtUp;
    private final BooleanSupplier redisWhole;
    private final Watermarks watermarks;
    private final Supplier<MirrorWriter> writer;
    private final CompensatorMetrics metrics;
    private final Duration interval;
    private final Clock clock;
    private long next;

    /**
     * @param handOverPushes asks every instance's push folder for what it read to reach the mirror now (they hand over
     *                       at the ends of the rounds on the wall clock anyway, at the same moments as the scans)
     */
    public DriftScan(
            CompensatorStreams streams,
            Runnable handOverPushes,
            CaughtUp caughtUp,
            BooleanSupplier redisWhole,
            Watermarks watermarks,
            Supplier<MirrorWriter> writer,
            CompensatorMetrics metrics,
            Duration interval,
            Clock clock) {
        this.streams = streams;
        this.handOverPushes = handOverPushes;
        this.caughtUp = caughtUp;
        this.redisWhole = redisWhole;
        this.watermarks = watermarks;
        this.writer = writer;
        this.metrics = metrics;
        this.interval = interval;
        this.clock = clock;
    }

    /**
     * One round of the scan's loop: a scan when one is due, a short sleep otherwise. Scans start at whole multiples
     * of the interval on the wall clock, when every instance's push folder hands its round's pushes over.
     */
    public void runWhenDue() throws InterruptedException {
        long now = clock.millis();
        if (now < next) {
            Thread.sleep(Math.min(next - now, LONGEST_SLEEP_MS));
            return;
        }
        long length = interval.toMillis();
        next = (now / length + 1) * length;
        if (streams.isRunning()) { // otherwise the store is migrating or restoring: the next scan will see it
            run(now);
        }
    }

    private void run(long started) throws InterruptedException {
        if (!redisWhole.getAsBoolean()) {
            return; // a rebuild writes Redis now, from a mirror caught up with the loss
        }
        handOverPushes.run();
        Duration waited = interval.compareTo(LEAST_CATCH_UP) > 0 ? interval : LEAST_CATCH_UP;
        long behind = caughtUp.await(waited);
        if (behind > 0) {
            log.info(
                    "the drift scan skips a round: the mirror is still {} records behind what was published when the"
                            + " round began, {} ago",
                    behind,
                    Durations.format(waited));
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
                                long snapshot = Math.min(mark.getAsLong(), started);
                                long endedSince = snapshot - ENDS_COMPARED_FOR * interval.toMillis();
                                scan.write(batch, image -> comparable(image, snapshot, endedSince));
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
     * Whether a round may write the image: once the moment it names (a watched order's next deadline, a finished or
     * given-up order's end) is at or before {@code snapshot}, the earlier of the round's start and the watermark; a
     * finished or given-up order's mark only while it ended after {@code endedSince}.
     */
    static boolean comparable(TimerImage image, long snapshot, long endedSince) {
        return image.at() <= snapshot && (image.phase() == TimerImage.Phase.WATCHED || image.at() > endedSince);
    }
}
