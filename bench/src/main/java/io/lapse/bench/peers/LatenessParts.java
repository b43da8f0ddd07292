package io.lapse.bench.peers;

import org.HdrHistogram.Histogram;

/**
 * Where Lapse's lateness of one run went, over the first expiries of its silent entities, each part in ms:
 *
 * @param toWatermark  deadline → the watermark reached it: timer.watermark-slack, the lateness allowance and the age of
 *                     ingest's newest proof that it had read everything (the probe every 20 ms and its report)
 * @param heldBack     of that, ingest's lateness allowance at the moment
 * @param toClaim      the watermark reached the deadline → the timer claimed the order in Redis (its firedAt)
 * @param toSend       claim → the timer handed the expiry to its producer (the record's timestamp)
 * @param toRead       send → the benchmark's consumer read it from the expired topic
 * @param unsampled    expiries whose watermark passage the trace did not see (left out of the parts)
 */
record LatenessParts(
        Histogram toWatermark,
        Histogram heldBack,
        Histogram toClaim,
        Histogram toSend,
        Histogram toRead,
        long unsampled) {

    private static final long HIGHEST_MILLIS = 3_600_000;

    /** Collects the parts while the run goes on; reads and writes come from different threads. */
    static final class Tally {
        private final Histogram toWatermark = histogram();
        private final Histogram heldBack = histogram();
        private final Histogram toClaim = histogram();
        private final Histogram toSend = histogram();
        private final Histogram toRead = histogram();
        private long unsampled;

        synchronized void unsampled() {
            unsampled++;
        }

        synchronized void record(
                long deadline, WatermarkTrace.Passage passage, long claimedAt, long sentAt, long readAt) {
            toWatermark.recordValue(clamp(passage.seenAtMillis() - deadline));
            heldBack.recordValue(clamp(passage.heldBackMillis()));
            toClaim.recordValue(clamp(claimedAt - passage.seenAtMillis()));
            toSend.recordValue(clamp(sentAt - claimedAt));
            toRead.recordValue(clamp(readAt - sentAt));
        }

        synchronized LatenessParts snapshot() {
            return new LatenessParts(
                    toWatermark.copy(), heldBack.copy(), toClaim.copy(), toSend.copy(), toRead.copy(), unsampled);
        }

        private static Histogram histogram() {
            return new Histogram(HIGHEST_MILLIS, 3);
        }

        /** The trace samples every millisecond, so a passage may be stamped a little after the claim it allowed. */
        private static long clamp(long millis) {
            return Math.max(0, Math.min(millis, HIGHEST_MILLIS));
        }
    }
}
