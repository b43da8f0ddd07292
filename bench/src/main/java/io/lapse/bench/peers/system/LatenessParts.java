package io.lapse.bench.peers.system;

import org.HdrHistogram.Histogram;

/**
 * Where Lapse's lateness of one run went, over the first expiries of its silent entities, each part in ms. The
 * watermark reaches a deadline once ingest reports a mark of deadline + timer.watermark-slack (+ its lateness
 * allowance) for every partition; a quiet partition's mark is the moment ingest last asked the broker how far it
 * reaches, so the wait splits into the slack, the wait for such a question, its answer and the loop's turn until a
 * report carries it, and that report's way into Redis.
 *
 * @param slackMillis   timer.watermark-slack of the run
 * @param toWatermark   deadline → the watermark reached it: the slack, the allowance, toQuestion, toReport and toRedis
 * @param heldBack      ingest's lateness allowance at the moment
 * @param toQuestion    deadline + slack + allowance → ingest asked the broker for the proof that moved the watermark
 *                      past it
 * @param toReport      asked → ingest made the report that carried the answer (the answer, then the loop's turn)
 * @param toRedis       report made → seen in Redis (the batch's updates are applied first, then the report)
 * @param roundTrip     of toReport, the broker's answers: every question of the run, from ingest's histogram
 *                      (bucket upper bounds)
 * @param toClaim       the watermark reached the deadline → the timer claimed the order in Redis (its firedAt)
 * @param toSend        claim → the timer handed the expiry to its producer (the record's timestamp)
 * @param toRead        send → the benchmark's consumer read it from the expired topic
 * @param unsampled     expiries whose watermark passage the trace did not see (left out of the parts)
 * @param behindMark    over every record of the run that arrived behind its partition's mark, how far (ingest's
 *                      histogram, bucket upper bounds): what the slack has to cover
 * @param behindMarkMax the farthest behind of those, exactly
 * @param probeCost     what the questions cost over the run
 */
public record LatenessParts(
        long slackMillis,
        Histogram toWatermark,
        Histogram heldBack,
        Histogram toQuestion,
        Histogram toReport,
        Histogram toRedis,
        Histogram roundTrip,
        Histogram toClaim,
        Histogram toSend,
        Histogram toRead,
        long unsampled,
        Histogram behindMark,
        double behindMarkMax,
        ProbeCost probeCost) {

    private static final long HIGHEST_MILLIS = 3_600_000;

    public static Histogram histogram() {
        return new Histogram(HIGHEST_MILLIS, 3);
    }

    /** Collects the parts while the run goes on; reads and writes come from different threads. */
    public static final class Tally {
        private final long slackMillis;
        private final Histogram toWatermark = histogram();
        private final Histogram heldBack = histogram();
        private final Histogram toQuestion = histogram();
        private final Histogram toReport = histogram();
        private final Histogram toRedis = histogram();
        private final Histogram toClaim = histogram();
        private final Histogram toSend = histogram();
        private final Histogram toRead = histogram();
        private long unsampled;

        public Tally(long slackMillis) {
            this.slackMillis = slackMillis;
        }

        public synchronized void unsampled() {
            unsampled++;
        }

        public synchronized void record(
                long deadline, WatermarkTrace.Passage passage, long claimedAt, long sentAt, long readAt) {
            toWatermark.recordValue(clamp(passage.seenAtMillis() - deadline));
            heldBack.recordValue(clamp(passage.heldBackMillis()));
            toQuestion.recordValue(clamp(passage.askedAtMillis() - slackMillis - passage.heldBackMillis() - deadline));
            toReport.recordValue(clamp(passage.madeAtMillis() - passage.askedAtMillis()));
            toRedis.recordValue(clamp(passage.seenAtMillis() - passage.madeAtMillis()));
            toClaim.recordValue(clamp(claimedAt - passage.seenAtMillis()));
            toSend.recordValue(clamp(sentAt - claimedAt));
            toRead.recordValue(clamp(readAt - sentAt));
        }

        /**
         * @param roundTrip  ingest's round trips over the run
         * @param behindMark how far behind their marks records arrived over the run
         */
        public synchronized LatenessParts snapshot(
                Histogram roundTrip, Histogram behindMark, double behindMarkMax, ProbeCost cost) {
            return new LatenessParts(
                    slackMillis,
                    toWatermark.copy(),
                    heldBack.copy(),
                    toQuestion.copy(),
                    toReport.copy(),
                    toRedis.copy(),
                    roundTrip,
                    toClaim.copy(),
                    toSend.copy(),
                    toRead.copy(),
                    unsampled,
                    behindMark,
                    behindMarkMax,
                    cost);
        }

        /** The trace samples every millisecond, so a passage may be stamped a little after the claim it allowed. */
        private static long clamp(long millis) {
            return Math.max(0, Math.min(millis, HIGHEST_MILLIS));
        }
    }
}
