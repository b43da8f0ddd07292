package io.lapse.bench.puller;

import java.time.Duration;

/**
 * The recovery run.
 *
 * @param backlog        expiries fired during the outage and not answered when upstream recovered
 * @param pulledOrders   orders with an OK pull after the recovery, of {@code orders}
 * @param failedInOutage FAILED results published during the outage (pulls refused max-attempts times before the
 *                       circuit opened)
 * @param lastPulledMs   from the recovery until the last order's first OK pull
 * @param drainedMs      from the recovery until the last held expiry was answered
 */
record RecoveryResult(
        int orders,
        Duration outage,
        int rateLimit,
        int concurrency,
        long backlog,
        int pulledOrders,
        int failedInOutage,
        long lastPulledMs,
        long drainedMs,
        int peakUpstream) {

    /** The goal: the backlog at the rate limit, plus 5 s. */
    long goalMs() {
        return backlog * 1000 / rateLimit + 5_000;
    }
}
