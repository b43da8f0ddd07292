package io.lapse.compensator;

import io.lapse.store.RebuildCount;
import io.lapse.store.TimerImage;
import io.lapse.store.Watermarks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The periodic comparison of this instance's part of the mirror with Redis, for losses too small to take an epoch
 * along: a failover that lost the last writes, a ttl-mode notification nobody heard. Only orders ingest has read past
 * (up to the watermark) are compared, so that it never does ingest's work ahead of it.
 */
final class DriftScan {

    private static final Logger log = LoggerFactory.getLogger(DriftScan.class);

    private final Supplier<LocalMirror> mirror;
    private final Watermarks watermarks;
    private final Supplier<MirrorWriter> writer;

    /** @param mirror the local mirror, or null while there is none (not started, closed) */
    DriftScan(Supplier<LocalMirror> mirror, Watermarks watermarks, Supplier<MirrorWriter> writer) {
        this.mirror = mirror;
        this.watermarks = watermarks;
        this.writer = writer;
    }

    /**
     * @return what it wrote, and how many orders the local mirror holds; nothing when the watermark or the store is
     * not there yet
     */
    Result run() {
        LocalMirror local = mirror.get();
        OptionalLong mark = Blocking.await(watermarks.low(), "read the watermark");
        if (local == null || mark.isEmpty()) {
            return null;
        }
        long watermark = mark.getAsLong();
        MirrorWriter scan = writer.get();
        AtomicLong orders = new AtomicLong();
        local.read(batch -> {
            orders.addAndGet(batch.size());
            scan.write(batch, image -> settled(image) <= watermark);
        }, MirrorSource.Progress.NONE);
        RebuildCount count = scan.total();
        if (count.written() > 0) {
            log.info("the drift scan wrote {} timers Redis had lost or fallen behind on ({} due at once)",
                    count.written(), count.overdue());
        }
        return new Result(count, orders.get());
    }

    /** When ingest had to read the order's newest status for Redis to know it. */
    private static long settled(TimerImage image) {
        return image.phase() == TimerImage.Phase.ENDED ? image.at() : image.lastSeen();
    }

    record Result(RebuildCount count, long orders) {
    }
}
