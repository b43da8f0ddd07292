package io.lapse.ingest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How much later than timer.watermark-slack records have lately arrived behind their partition's mark. A producer
 * starved of CPU or retrying holds records for longer than any fixed slack; once one is seen to, ingest holds its
 * marks back by as much, for {@link #MEMORY_MS} after the last such record, so that its next late records find the
 * watermark behind them rather than their orders fired. Never more than the ttl: a push held back longer than that
 * is a lost push, which the pull of its expiry answers.
 */
final class LatenessAllowance {

    private static final Logger log = LoggerFactory.getLogger(LatenessAllowance.class);

    static final long MEMORY_MS = 60_000;

    private final long mostMillis;
    private long allowance;
    private long observedAt = Long.MIN_VALUE;

    /** @param mostMillis the largest allowance, timer.ttl */
    LatenessAllowance(long mostMillis) {
        this.mostMillis = mostMillis;
    }

    /** @param beyondSlack how much later than the slack allows a record arrived */
    void observe(long beyondSlack, long now) {
        long before = current(now);
        allowance = Math.max(before, Math.min(beyondSlack, mostMillis));
        observedAt = now;
        if (allowance >= 2 * before + 1) {
            log.info(
                    "records arrive up to {} ms later than timer.watermark-slack allows; watermarks are held back by "
                            + "as much until a minute passes without one",
                    allowance);
        }
    }

    /** How far to hold marks back now. */
    long current(long now) {
        return now - MEMORY_MS > observedAt ? 0 : allowance;
    }
}
