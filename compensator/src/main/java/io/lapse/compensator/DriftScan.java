package io.lapse.compensator;

import io.lapse.store.RebuildCount;
import io.lapse.store.TimerImage;
import io.lapse.store.Watermarks;
import java.time.Clock;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic comparison of this instance's part of the mirror with Redis, for losses too small to take an epoch
 * along: a failover that lost the last writes, a ttl-mode notification nobody heard. Only orders ingest has read past
 * (up to the watermark) are compared, so that it never does ingest's work ahead of it.
 */
final class DriftScan {

    private static final Logger log = LoggerFactory.getLogger(DriftScan.class);
    private static final long LONGEST_SLEEP_MS = 1_000;

    private final CompensatorStreams streams;
    private final Watermarks watermarks;
    private final Supplier<MirrorWriter> writer;
    private final CompensatorMetrics metrics;
    private final Duration interval;
    private final Clock clock;
    private long next;

    DriftScan(
            CompensatorStreams streams,
            Watermarks watermarks,
            Supplier<MirrorWriter> writer,
            CompensatorMetrics metrics,
            Duration interval,
            Clock clock) {
        this.streams = streams;
        this.watermarks = watermarks;
        this.writer = writer;
        this.metrics = metrics;
        this.interval = interval;
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

    private void run(long started) {
        OptionalLong mark = Blocking.await(watermarks.low(), "read the watermark");
        MirrorWriter scan = writer.get();
        AtomicLong orders = new AtomicLong();
        streams.local()
                .read(
                        batch -> {
                            orders.addAndGet(batch.size());
                            if (mark.isPresent()) {
                                scan.write(batch, image -> settled(image) <= mark.getAsLong());
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

    /** When ingest had to read the order's newest status for Redis to know it. */
    private static long settled(TimerImage image) {
        return image.phase() == TimerImage.Phase.ENDED ? image.at() : image.lastSeen();
    }
}
