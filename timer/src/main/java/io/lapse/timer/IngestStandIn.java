package io.lapse.timer;

import io.lapse.store.watermarks.Watermarks;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the timer reads for ingest: a restarting ingest holds the watermark from its SIGTERM until its successor has
 * read the partitions again, a killed one until its restart or its session's end, a frozen one until it thaws, and
 * every silent order due meanwhile waited for it although nothing unread spoke of it. Once a deadline has waited
 * {@link Watermarks#READER_AWAY_MS} for the watermark and the report holding the watermark back is as old, ingest is
 * taken for away and {@link UnreadRecords} proves what its report would, every {@link #EVERY_MS} while it stays away,
 * every {@link #BACKOFF_MS} once it has been away for {@link #LONG_ABSENCE_MS} or after a proof that could not be
 * given.
 * Used by the timer's loop thread only.
 */
final class IngestStandIn implements AutoCloseable {

    /** What reads for the stand-in: {@link UnreadRecords}. */
    interface Reading extends AutoCloseable {

        /** @see UnreadRecords#prove */
        Optional<UnreadRecords.Proof> prove(long now) throws Exception;

        @Override
        void close();
    }

    private static final Logger log = LoggerFactory.getLogger(IngestStandIn.class);

    /*
     * While ingest is away, each proof reads only what was appended since the last; one every 200 ms keeps a silent
     * order's expiry within about 0.7 s of its deadline through a restart. An absence of more than 10 s (a kill that
     * waits out the session, a freeze, maintenance) is read every second, which costs the broker four requests a
     * second and a silent order up to half a second more.
     */
    private static final long EVERY_MS = 200;
    private static final long LONG_ABSENCE_MS = 10_000;
    // after a proof that could not be given (too much unread, the broker not answering), and through a long absence
    private static final long BACKOFF_MS = 1_000;

    private final Reading unread;
    private long nextProof;
    private boolean failing;

    IngestStandIn(Reading unread) {
        this.unread = unread;
    }

    /**
     * @param now          Redis's clock, before anything is asked
     * @param oldestReport when the report holding the watermark back was made; empty when a partition has none
     * @return a proof of what may fire, when ingest is away and one can be given now
     */
    Optional<UnreadRecords.Proof> proofIfAway(long now, OptionalLong oldestReport) {
        long silentFor = oldestReport.isPresent() ? now - oldestReport.getAsLong() : Long.MAX_VALUE;
        if (now < nextProof || silentFor < Watermarks.READER_AWAY_MS) {
            return Optional.empty();
        }
        Optional<UnreadRecords.Proof> proof;
        try {
            proof = unread.prove(now);
            if (failing) {
                log.info("the timer reads the push and pulled topics for an absent ingest again");
                failing = false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (Exception e) {
            if (!failing) {
                log.warn(
                        "ingest's oldest report is {} and the timer cannot read what it has not applied: {}",
                        described(silentFor),
                        e.toString());
                failing = true;
            }
            proof = Optional.empty();
        }
        nextProof = now + (proof.isPresent() && silentFor < LONG_ABSENCE_MS ? EVERY_MS : BACKOFF_MS);
        return proof;
    }

    /** Says what a proof fired, when it fired anything. */
    void fired(int orders, UnreadRecords.Proof proof, OptionalLong oldestReport, long now) {
        if (orders > 0) {
            log.info(
                    "ingest's oldest report is {}: fired {} due by {}, none of which the {} records it has"
                            + " not applied name",
                    described(oldestReport.isPresent() ? now - oldestReport.getAsLong() : Long.MAX_VALUE),
                    orders == 1 ? "1 order" : orders + " orders",
                    Instant.ofEpochMilli(proof.firesUpTo()),
                    proof.recordsRead());
        }
    }

    private static String described(long silentFor) {
        return silentFor == Long.MAX_VALUE ? "missing for some partition" : silentFor + " ms old";
    }

    @Override
    public void close() {
        unread.close();
    }
}
